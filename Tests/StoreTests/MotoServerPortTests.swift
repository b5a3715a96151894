import Emulator
import Foundation
import TestServers
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The moto_server every DynamoDB test talks to must own the port it announces. CI once saw
/// `CreateTable on Counters failed: 404`: the script took a free port from a probe socket,
/// closed it, printed it, and bound it a second later, after importing moto; in that second
/// another test's server (start-api, a runtime API, all on port 0) took the port, and the store
/// test, which waits for the port to accept, sent DynamoDB's requests to that server.
struct MotoServerPortTests {
    @Test func thePortItPrintsIsAlreadyItsOwn() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("moto-port-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("stdout").path
        let server = try ChildProcess(
            executable: "/usr/bin/env", arguments: [PythonTools.python, MotoServer.script],
            environment: ProcessInfo.processInfo.environment, directory: folder.path, output: .file(output),
            error: .file(folder.appendingPathComponent("stderr").path))
        defer { server.kill() }

        var port: Int?
        for _ in 0..<600 where port == nil && !server.hasExited {
            let text = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
            port = text.split(separator: "\n").first.flatMap { Int($0) }
            if port == nil { try await Task.sleep(for: .milliseconds(20)) }
        }
        let announced = try #require(port, "the script printed a port")
        // The moment the port is announced, nothing else can listen on it: another server
        // binding it as a test's server would (with SO_REUSEADDR) is refused.
        #expect(Self.bindError(port: announced) == EADDRINUSE)
    }

    /// The errno of binding a listening socket to the loopback `port`, or 0 if the bind worked.
    private static func bindError(port: Int) -> Int32 {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return errno }
        defer { close(descriptor) }
        var reuse: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        return bound == 0 ? 0 : errno
    }
}
