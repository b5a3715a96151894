import Foundation
import LambdaRuntime
import NIOCore
import TestServers
import Testing

@testable import Emulator

#if canImport(Glibc)
import Glibc
#endif

/// The local API's edge under hostile clients, as API Gateway bounds them: oversized heads and
/// bodies, slow or idle connections, more connections than allowed. Each probe is a real socket
/// with a receive deadline, so a server that does not act fails the test instead of hanging it.
struct APIEdgeTests {
    /// What a probe saw: the bytes the server sent, and whether it closed the connection before
    /// the probe's own deadline.
    struct Seen {
        let text: String
        let closedByServer: Bool
        /// Seconds from the last byte sent to the end.
        let seconds: Double
    }

    /// Connects, sends `parts` (pausing `pause` between them), then reads until the server closes
    /// or `deadline` passes. Blocking calls, on a thread of their own (see `exchange`).
    static func probe(
        _ port: Int, _ parts: [String], pause: Duration = .zero, deadline: Duration = .seconds(10)
    ) async throws -> Seen {
        try await withCheckedThrowingContinuation { continuation in
            Thread {
                continuation.resume(with: Result { try blockingProbe(port, parts, pause: pause, deadline: deadline) })
            }.start()
        }
    }

    static func connect(_ port: Int) throws -> Int32 {
        guard let fd = RudeClient.connected(port: port) else {
            throw RuntimeAPIServerTests.SocketFailure(step: "connect")
        }
        return fd
    }

    private static func blockingProbe(
        _ port: Int, _ parts: [String], pause: Duration, deadline: Duration
    ) throws
        -> Seen
    {
        let fd = try connect(port)
        defer { close(fd) }
        for (index, part) in parts.enumerated() {
            if index > 0, pause > .zero { Thread.sleep(forTimeInterval: pause / .seconds(1)) }
            let bytes = Array(part.utf8)
            // A server that closed may refuse the rest: what it answered is what counts.
            guard send(fd, bytes, bytes.count, Int32(MSG_NOSIGNAL)) == bytes.count else { break }
        }
        let sent = ContinuousClock.now
        var timeout = timeval(tv_sec: 0, tv_usec: 200_000)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while sent.duration(to: .now) < deadline {
            let count = recv(fd, &chunk, chunk.count, 0)
            if count > 0 {
                received += chunk[..<count]
            } else if count == 0 || (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
                let text = String(decoding: received, as: UTF8.self)
                return Seen(text: text, closedByServer: true, seconds: sent.duration(to: .now) / .seconds(1))
            }
        }
        return Seen(text: String(decoding: received, as: UTF8.self), closedByServer: false, seconds: 0)
    }

    static func withListener(
        _ limits: APIEdgeLimits = .init(), _ body: (APIListener) async throws -> Void
    ) async throws {
        let listener = try await APIListener.start(host: "127.0.0.1", port: 0, limits: limits)
        let route = HTTPRoute(
            function: "Missing", event: "Get", kind: .httpAPI, method: "GET", path: "/a", payloadFormat: .v2,
            authorizer: nil)
        listener.attach(LocalAPIGateway(routes: try RouteTable(routes: [route]), pools: [:], log: { _ in }))
        do {
            try await body(listener)
        } catch {
            await listener.stop()
            throw error
        }
        await listener.stop()
    }

    /// A 64 KB header is 431 and the connection closes (before, NIO's 80 KB limit let it through
    /// to the gateway).
    @Test func aLargeHeadIs431() async throws {
        try await Self.withListener { listener in
            let seen = try await Self.probe(
                listener.port,
                ["GET /a HTTP/1.1\r\nHost: x\r\nX-Big: \(String(repeating: "a", count: 64 * 1024))\r\n\r\n"])
            #expect(seen.text.hasPrefix("HTTP/1.1 431 Request Header Fields Too Large\r\n"), "\(seen.text.prefix(80))")
            #expect(seen.closedByServer)
            // Just over 10 KB of headers in several lines, and a long request line, likewise.
            let lines = (0..<11).map { "X-H\($0): \(String(repeating: "b", count: 1000))\r\n" }.joined()
            let many = try await Self.probe(listener.port, ["GET /a HTTP/1.1\r\nHost: x\r\n\(lines)\r\n"])
            #expect(many.text.hasPrefix("HTTP/1.1 431 "), "\(many.text.prefix(80))")
            let longURI = try await Self.probe(
                listener.port, ["GET /a?\(String(repeating: "q", count: 11 * 1024)) HTTP/1.1\r\nHost: x\r\n\r\n"])
            #expect(longURI.text.hasPrefix("HTTP/1.1 431 "), "\(longURI.text.prefix(80))")
        }
    }

    /// A declared 11 MiB body with no body sent: 413 at once, not a wait for bytes that never
    /// come (before, the server read on until the client gave up).
    @Test func aDeclaredBodyOverTheLimitIs413BeforeItIsRead() async throws {
        try await Self.withListener { listener in
            let seen = try await Self.probe(
                listener.port, ["POST /a HTTP/1.1\r\nHost: x\r\nContent-Length: \(11 * 1024 * 1024)\r\n\r\n"])
            #expect(seen.text.hasPrefix("HTTP/1.1 413 "), "\(seen.text.prefix(80))")
            #expect(seen.closedByServer)
            // A client that sends the body all the same still reads the answer: the rest is
            // dropped as it comes, and the connection closes at its end.
            let size = 11 * 1024 * 1024
            let sent = try await Self.probe(
                listener.port,
                ["POST /a HTTP/1.1\r\nHost: x\r\nContent-Length: \(size)\r\n\r\n", String(repeating: "a", count: size)])
            #expect(sent.text.hasPrefix("HTTP/1.1 413 "), "\(sent.text.prefix(80))")
            #expect(sent.closedByServer)
        }
    }

    /// A client that sends a request's head a line at a time, slower than the request timeout
    /// allows, is cut off; so is a connection that sends nothing. A whole request in time is
    /// answered, and the connection then has a fresh timeout for the next one.
    @Test func slowAndIdleConnectionsAreClosedAtTheRequestTimeout() async throws {
        try await Self.withListener(.init(requestTimeout: .milliseconds(600))) { listener in
            let slowloris = try await Self.probe(
                listener.port, ["GET /a HTTP/1.1\r\n", "Host: x\r\n", "X-1: 1\r\n", "X-2: 2\r\n"],
                pause: .milliseconds(300))
            #expect(slowloris.closedByServer)
            #expect(slowloris.text.isEmpty)
            let idle = try await Self.probe(listener.port, [])
            #expect(idle.closedByServer)
            #expect(idle.seconds < 5)
            let keptAlive = try await Self.probe(listener.port, ["GET /nothing HTTP/1.1\r\nHost: x\r\n\r\n"])
            #expect(keptAlive.text.hasPrefix("HTTP/1.1 404 Not Found\r\n"), "\(keptAlive.text.prefix(80))")
            #expect(keptAlive.closedByServer, "closed once idle after its answer")
        }
    }

    /// With every connection taken, the next is closed on arrival and the held ones still work;
    /// once one closes, a new one is served.
    @Test func connectionsPastTheLimitAreRefused() async throws {
        try await Self.withListener(.init(maximumConnections: 4)) { listener in
            var held = try (0..<4).map { _ in try Self.connect(listener.port) }
            // Each closed once: a second close of a number another test's socket has taken since
            // closed that socket under NIO (EBADF, a crash of the whole test process).
            defer { for fd in held where fd >= 0 { close(fd) } }
            // The four are accepted (a request on the first is answered) before the fifth comes.
            let first = Array("GET /nothing HTTP/1.1\r\nHost: x\r\n\r\n".utf8)
            #expect(send(held[0], first, first.count, Int32(MSG_NOSIGNAL)) == first.count)
            var chunk = [UInt8](repeating: 0, count: 4096)
            #expect(recv(held[0], &chunk, chunk.count, 0) > 0)
            let refused = try await Self.probe(listener.port, ["GET /nothing HTTP/1.1\r\nHost: x\r\n\r\n"])
            #expect(refused.closedByServer)
            #expect(refused.text.isEmpty, "\(refused.text.prefix(80))")
            close(held[3])
            held[3] = -1
            var served = try await Self.probe(
                listener.port, ["GET /nothing HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"])
            for _ in 0..<50 where served.text.isEmpty {
                // The server counts the closed connection once its close is processed.
                served = try await Self.probe(
                    listener.port, ["GET /nothing HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"])
            }
            #expect(served.text.hasPrefix("HTTP/1.1 404 Not Found\r\n"), "\(served.text.prefix(80))")
        }
    }
}
