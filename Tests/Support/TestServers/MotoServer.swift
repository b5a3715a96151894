import Emulator
import Foundation
import GatehouseJSON
import Synchronization

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

#if canImport(Glibc)
import Glibc
#endif

/// One moto_server (`moto[server]`, in `.build/venv`) for the test process, on a free loopback port,
/// started on first use (`Tests/Support/Moto/moto_server.py`); it exits when the test process
/// does. The DynamoDB, SES and SNS tests talk to it as they would to AWS.
public actor MotoServer {
    /// The test process's moto_server.
    public static let shared = MotoServer()
    /// One of its own, for a test that would keep the shared one busy (the racing processes).
    public static let dedicated = MotoServer()
    /// The SES, SNS and secrets tests': their reads of moto's whole state
    /// (`/moto-api/data.json`) fail while other tests change DynamoDB's tables at the same time.
    public static let messaging = MotoServer()
    /// The one start, which every caller awaits (an actor lets a second caller in while the
    /// first waits, so the start is a task of its own).
    private var start: Task<String, any Error>?
    private let process = Mutex<ChildProcess?>(nil)
    /// The script that starts one (`Tests/Support/Moto/moto_server.py`): it prints its port once
    /// the server listens on it.
    public static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Moto/moto_server.py").path

    /// `http://127.0.0.1:PORT`, once the server answers.
    public func endpoint() async throws -> String {
        if let start { return try await start.value }
        let task = Task { try await self.launch() }
        start = task
        return try await task.value
    }

    private nonisolated func launch() async throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("moto-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let output = folder.appendingPathComponent("stdout").path
        let process = try ChildProcess(
            executable: "/usr/bin/env",
            arguments: [PythonTools.python, Self.script],
            environment: ProcessInfo.processInfo.environment, directory: folder.path, output: .file(output),
            error: .file(folder.appendingPathComponent("stderr").path))
        for _ in 0..<600 {
            if process.hasExited { break }
            let text = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
            if let port = text.split(separator: "\n").first.flatMap({ Int($0) }), Self.accepts(port: port) {
                self.process.withLock { $0 = process }
                return "http://127.0.0.1:\(port)"
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        process.kill()
        let errors = (try? String(contentsOfFile: folder.appendingPathComponent("stderr").path, encoding: .utf8)) ?? ""
        throw MotoServerError.didNotStart(String(errors.suffix(2000)))
    }

    /// moto's whole state, through its own API (`/moto-api/data.json`): the emails SES sent
    /// (`ses.Message`), the SMS SNS published (`sns.SMS`). moto serializes every backend for
    /// this, and a request that meets a change in progress gets an error page: it is asked
    /// again, a few times.
    public func state() async throws -> JSONValue {
        let url = URL(string: try await endpoint() + "/moto-api/data.json")!
        for _ in 0..<4 {
            let (data, _) = try await URLSession.shared.data(from: url)
            if let state = try? JSONValue(parsing: Array(data)) { return state }
            try await Task.sleep(for: .milliseconds(200))
        }
        let (data, _) = try await URLSession.shared.data(from: url)
        return try JSONValue(parsing: Array(data))
    }

    /// Whether something accepts TCP connections on the loopback port.
    private static func accepts(port: Int) -> Bool {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }
}

/// moto_server did not come up (is `moto[server]` installed? `.ci/run` installs it in .build/venv).
public enum MotoServerError: Error, CustomStringConvertible {
    case didNotStart(String)

    public var description: String {
        switch self {
        case .didNotStart(let errors):
            "moto_server did not start (.ci/run installs moto[server] in .build/venv): \(errors)"
        }
    }
}
