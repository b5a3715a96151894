import Foundation
import NIOCore
import Testing

@testable import Emulator

#if canImport(Glibc)
import Glibc
#endif

/// The Runtime API server on the wire, with what runtime clients in other languages send and
/// URLSession does not: `Expect: 100-continue`, pipelined requests, a `/next` whose client gives up.
struct RuntimeAPIServerTests {
    /// Opens a connection to `address` (`host:port`), writes `request`, and with `reading`, reads
    /// until the server closes the connection; otherwise closes it at once.
    ///
    /// The socket calls block, so they run on a thread of their own: on one of Swift's few pool
    /// threads they once starved the `async let` invocations these tests wait for, and with two
    /// such tests at once on 2 cores the whole test run hung.
    static func exchange(_ address: String, _ request: String, reading: Bool = true) async throws -> String {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try blockingExchange(address, request, reading: reading) }) }
                .start()
        }
    }

    private static func blockingExchange(_ address: String, _ request: String, reading: Bool) throws -> String {
        // Off the test's task, so failures are thrown, not recorded with #require.
        guard let port = address.split(separator: ":").last.flatMap({ UInt16($0) }) else {
            throw SocketFailure(step: "parse the address \(address)")
        }
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw SocketFailure(step: "socket") }
        defer { close(fd) }
        var target = sockaddr_in()
        target.sin_family = sa_family_t(AF_INET)
        target.sin_port = port.bigEndian
        target.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &target) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { throw SocketFailure(step: "connect to \(address)") }
        let bytes = Array(request.utf8)
        guard send(fd, bytes, bytes.count, Int32(MSG_NOSIGNAL)) == bytes.count else {
            throw SocketFailure(step: "send")
        }
        guard reading else { return "" }
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = recv(fd, &chunk, chunk.count, 0)
            guard count > 0 else { break }
            received += chunk[..<count]
        }
        return String(decoding: received, as: UTF8.self)
    }

    /// A socket call of `exchange` failed, with its errno.
    struct SocketFailure: Error, CustomStringConvertible {
        let step: String
        let code = errno
        var description: String { "\(step): \(String(cString: strerror(code)))" }
    }

    static func invocation(_ id: String) -> Invocation {
        Invocation(
            requestID: id, payload: ByteBuffer(string: #"{"n":1}"#), invokedFunctionARN: "arn:x", timeout: .seconds(60))
    }

    /// A client that asks `Expect: 100-continue` before its body gets the interim 100, then the
    /// answer; two requests written at once get two answers, in order, on the same connection.
    @Test func continueAndPipelinedRequests() async throws {
        let session = RuntimeSession()
        let server = try await RuntimeAPIServer.start(session: session)
        async let result = session.invoke(Self.invocation("r-1"))
        let next = try await Self.exchange(
            server.address, "GET /2018-06-01/runtime/invocation/next HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        #expect(next.hasPrefix("HTTP/1.1 200 OK\r\n"))
        #expect(next.lowercased().contains("\r\nlambda-runtime-aws-request-id: r-1\r\n"))
        #expect(next.hasSuffix(#"{"n":1}"#))

        let posted = try await Self.exchange(
            server.address,
            "POST /2018-06-01/runtime/invocation/r-1/response HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\n"
                + "Content-Length: 4\r\nConnection: close\r\n\r\ndone")
        #expect(posted.hasPrefix("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 202 Accepted\r\n"), "\(posted)")
        #expect(await result.0 == .response(ByteBuffer(string: "done")))

        let both = try await Self.exchange(
            server.address,
            "GET /2018-06-01/runtime/nothing HTTP/1.1\r\nHost: x\r\n\r\n"
                + "PUT /2018-06-01/runtime/invocation/next HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
        )
        // Each body has a Content-Length and no line end: the next status line follows it directly.
        let statuses = both.components(separatedBy: "HTTP/1.1 ").dropFirst().map {
            "HTTP/1.1 " + ($0.components(separatedBy: "\r\n").first ?? "")
        }
        #expect(statuses == ["HTTP/1.1 404 Not Found", "HTTP/1.1 405 Method Not Allowed"], "\(both)")
        session.end(.cancelled)
        await server.stop()
    }

    /// A runtime that asks for `/next` and then drops the connection never receives an event:
    /// the event waits for the next `/next` instead of vanishing into a closed socket.
    @Test func aDroppedNextDoesNotSwallowTheEvent() async throws {
        let session = RuntimeSession()
        let server = try await RuntimeAPIServer.start(session: session)
        _ = try await Self.exchange(
            server.address, "GET /2018-06-01/runtime/invocation/next HTTP/1.1\r\nHost: x\r\n\r\n", reading: false)
        // The server learns of the close on its own event loop; wait until it has.
        let deadline = ContinuousClock.now + .seconds(10)
        while session.initializedAt == nil || session.hasParkedNext, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(5))
        }
        #expect(!session.hasParkedNext)
        async let result = session.invoke(Self.invocation("r-2"))
        let next = try await Self.exchange(
            server.address, "GET /2018-06-01/runtime/invocation/next HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        #expect(next.lowercased().contains("\r\nlambda-runtime-aws-request-id: r-2\r\n"))
        #expect(session.postResponse(requestID: "r-2", body: ByteBuffer(string: "ok")) == .accepted)
        #expect(await result.0 == .response(ByteBuffer(string: "ok")))
        session.end(.cancelled)
        await server.stop()
    }

    /// A request written behind a `/next` that has to wait for its event is answered after that
    /// event, on the same connection: answers keep the order of the requests. Its
    /// `Expect: 100-continue` is not answered ahead of the event (its body came with it, so it
    /// needs no interim answer at all).
    @Test func aRequestBehindAParkedNextWaitsItsTurn() async throws {
        let session = RuntimeSession()
        let server = try await RuntimeAPIServer.start(session: session)
        async let both = Self.exchange(
            server.address,
            "GET /2018-06-01/runtime/invocation/next HTTP/1.1\r\nHost: x\r\n\r\n"
                + "POST /2018-06-01/runtime/nothing HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\n"
                + "Content-Length: 2\r\nConnection: close\r\n\r\nhi")
        // The exchange runs on a thread of its own. With the whole suite starting at once on 2
        // cores, its /next once arrived more than 10 s later (the rest of the test then passed);
        // the bound only stops a broken run.
        let deadline = ContinuousClock.now + .seconds(120)
        while !session.hasParkedNext, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(5))
        }
        #expect(session.hasParkedNext)
        async let result = session.invoke(Self.invocation("r-3"))
        let text = try await both
        let statuses = text.components(separatedBy: "HTTP/1.1 ").dropFirst().map {
            "HTTP/1.1 " + ($0.components(separatedBy: "\r\n").first ?? "")
        }
        #expect(statuses == ["HTTP/1.1 200 OK", "HTTP/1.1 404 Not Found"], "\(text)")
        #expect(text.lowercased().contains("\r\nlambda-runtime-aws-request-id: r-3\r\n"))
        #expect(session.postResponse(requestID: "r-3", body: ByteBuffer(string: "ok")) == .accepted)
        #expect(await result.0 == .response(ByteBuffer(string: "ok")))
        session.end(.cancelled)
        await server.stop()
    }

    /// Bytes that are not HTTP get a 400, and the server closes the connection.
    @Test func notHTTPIsABadRequest() async throws {
        let session = RuntimeSession()
        let server = try await RuntimeAPIServer.start(session: session)
        let answer = try await Self.exchange(server.address, "HELLO THERE\r\n\r\n")
        #expect(answer.hasPrefix("HTTP/1.1 400 Bad Request\r\n"), "\(answer)")
        #expect(!session.hasParkedNext)
        session.end(.cancelled)
        await server.stop()
    }
}
