import LambdaRuntime
import NIOCore
import NIOEmbedded
import NIOHTTP1
import Synchronization
import Testing

@testable import Emulator

/// The local API reads no further ahead of its answers than the request it answers: while one is
/// with the gateway the socket is not read, so a client that pipelines cannot queue work without
/// bound.
struct APIRequestReadsTests {
    /// Counts the reads that reach the socket's end of the pipeline.
    final class ReadCounter: ChannelOutboundHandler, Sendable {
        typealias OutboundIn = Never
        let count = Mutex(0)

        func read(context: ChannelHandlerContext) {
            count.withLock { $0 += 1 }
            context.read()
        }
    }

    static func send(_ path: String, to channel: NIOAsyncTestingChannel) async throws {
        try await channel.writeInbound(
            HTTPServerRequestPart.head(HTTPRequestHead(version: .http1_1, method: .GET, uri: path)))
        try await channel.writeInbound(HTTPServerRequestPart.end(nil))
    }

    /// Asks for a read as NIO does after each one, on the channel's loop.
    static func read(_ channel: NIOAsyncTestingChannel) async throws {
        try await channel.testingEventLoop.executeInContext { channel.pipeline.syncOperations.read() }
    }

    /// A local route whose answers wait until the test lets them go.
    final class HeldRoute: LocalRoutes {
        let routeDescriptions = ["GET /held"]
        private let released = Mutex<(open: Bool, waiting: [CheckedContinuation<Void, Never>])>((false, []))

        func answer(_ request: APIRequest, gateway: LocalAPIGateway) async -> APIResponse? {
            await withCheckedContinuation { continuation in
                let resume = released.withLock { state in
                    if !state.open { state.waiting.append(continuation) }
                    return state.open
                }
                if resume { continuation.resume() }
            }
            return APIResponse(status: 200, headers: [], body: Array("held".utf8))
        }

        func release() {
            for continuation in released.withLock({ state in
                state.open = true
                defer { state.waiting = [] }
                return state.waiting
            }) {
                continuation.resume()
            }
        }
    }

    /// A connection to a gateway whose one route is `held`, its reads counted by `reads`.
    static func connection(_ held: HeldRoute, reads: ReadCounter) async throws -> NIOAsyncTestingChannel {
        let gateway = APIListener.Gateway()
        let routes = try RouteTable(routes: [])
        gateway.current.withLock {
            $0 = LocalAPIGateway(routes: routes, pools: [:], localRoutes: [held], log: { _ in })
        }
        let channel = NIOAsyncTestingChannel()
        try await channel.testingEventLoop.executeInContext {
            try channel.pipeline.syncOperations.addHandler(reads)
            try channel.pipeline.syncOperations.addHandler(APIRequestHandler(gateway: gateway, limits: APIEdgeLimits()))
        }
        try await channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 9))
        return channel
    }

    /// What the connection writes, as text, until `count` writes have come (at most 10 s).
    static func written(_ count: Int, by channel: NIOAsyncTestingChannel) async throws -> [String] {
        var writes: [String] = []
        let deadline = ContinuousClock.now + .seconds(10)
        while writes.count < count, ContinuousClock.now < deadline {
            if let bytes = try await channel.readOutbound(as: ByteBuffer.self) {
                writes.append(String(buffer: bytes))
            } else {
                try await Task.sleep(for: .milliseconds(1))
            }
        }
        return writes
    }

    @Test func readsWaitWhileARequestIsAnswered() async throws {
        let held = HeldRoute()
        let reads = ReadCounter()
        let channel = try await Self.connection(held, reads: reads)
        try await Self.read(channel)
        #expect(reads.count.withLock { $0 } == 1, "no request yet: the read goes through")
        try await Self.send("/held", to: channel)
        try await Self.read(channel)
        #expect(reads.count.withLock { $0 } == 1, "a request being answered: the read is held")
        // A second request read in the same read as the first waits for its turn.
        try await Self.send("/held", to: channel)
        try await Self.read(channel)
        #expect(reads.count.withLock { $0 } == 1)

        // Both answered, in order; then the held read goes through.
        held.release()
        let answers = try await Self.written(2, by: channel)
        #expect(answers.count == 2)
        #expect(answers.allSatisfy { $0.hasPrefix("HTTP/1.1 200 OK\r\n") && $0.hasSuffix("held") }, "\(answers)")
        #expect(reads.count.withLock { $0 } == 2, "both answered: the held read goes through")
        _ = try? await channel.finish()
    }

    /// A request behind an unanswered one that expects `100 Continue` gets it after that answer,
    /// never before: the bytes on the connection stay in request order.
    @Test func anExpectBehindAnAnswerIsContinuedAfterIt() async throws {
        let held = HeldRoute()
        let channel = try await Self.connection(held, reads: ReadCounter())
        try await Self.send("/held", to: channel)
        try await channel.writeInbound(HTTPServerRequestPart.head(Self.expecting("/held")))
        #expect(try await channel.readOutbound(as: ByteBuffer.self) == nil, "nothing before the first answer")

        held.release()
        let first = try await Self.written(2, by: channel)
        #expect(first.count == 2)
        #expect(first.first?.hasPrefix("HTTP/1.1 200 OK\r\n") == true, "\(first)")
        #expect(first.last == "HTTP/1.1 100 Continue\r\n\r\n", "\(first)")
        try await channel.writeInbound(HTTPServerRequestPart.body(ByteBuffer(string: "hi")))
        try await channel.writeInbound(HTTPServerRequestPart.end(nil))
        let second = try await Self.written(1, by: channel)
        #expect(second.first?.hasPrefix("HTTP/1.1 200 OK\r\n") == true, "\(second)")
        _ = try? await channel.finish()
    }

    /// Behind two unanswered requests, the owed `100 Continue` follows both answers; a body that
    /// comes before them cancels it.
    @Test func anExpectBehindTwoAnswersWaitsForBothAndABodyCancelsIt() async throws {
        let held = HeldRoute()
        let channel = try await Self.connection(held, reads: ReadCounter())
        try await Self.send("/held", to: channel)
        try await Self.send("/held", to: channel)
        try await channel.writeInbound(HTTPServerRequestPart.head(Self.expecting("/held")))
        held.release()
        let written = try await Self.written(3, by: channel)
        #expect(written.count == 3)
        #expect(written.prefix(2).allSatisfy { $0.hasPrefix("HTTP/1.1 200 OK\r\n") }, "\(written)")
        #expect(written.last == "HTTP/1.1 100 Continue\r\n\r\n", "\(written)")
        try await channel.writeInbound(HTTPServerRequestPart.body(ByteBuffer(string: "hi")))
        try await channel.writeInbound(HTTPServerRequestPart.end(nil))
        #expect(try await Self.written(1, by: channel).first?.hasPrefix("HTTP/1.1 200 OK\r\n") == true)

        let early = HeldRoute()
        let second = try await Self.connection(early, reads: ReadCounter())
        try await Self.send("/held", to: second)
        try await second.writeInbound(HTTPServerRequestPart.head(Self.expecting("/held")))
        try await second.writeInbound(HTTPServerRequestPart.body(ByteBuffer(string: "hi")))
        try await second.writeInbound(HTTPServerRequestPart.end(nil))
        early.release()
        let answers = try await Self.written(2, by: second)
        #expect(answers.count == 2)
        #expect(answers.allSatisfy { $0.hasPrefix("HTTP/1.1 200 OK\r\n") }, "no 100: \(answers)")
        _ = try? await channel.finish()
        _ = try? await second.finish()
    }

    /// A head that expects `100 Continue` before a 2-byte body.
    static func expecting(_ path: String) -> HTTPRequestHead {
        var head = HTTPRequestHead(version: .http1_1, method: .GET, uri: path)
        head.headers.add(name: "Expect", value: "100-continue")
        head.headers.add(name: "Content-Length", value: "2")
        return head
    }
}
