import NIOCore
import NIOPosix
import Synchronization

/// A TCP server that answers each whole HTTP request with the next of a list of raw replies,
/// byte for byte, so a test can send what a well-behaved server library never would: chunked
/// bodies, `100 Continue`, a close after the reply, garbage.
final class ScriptedHTTPServer: Sendable {
    /// One reply, and whether the server closes the connection after it.
    struct Reply: Sendable {
        var bytes: String
        var close = false
    }

    private struct State {
        var replies: [Reply]
        var requests: [String] = []
        var connections = 0
    }

    let port: Int
    private let channel: any Channel
    private let box: Box

    /// The requests received so far, head and body as text.
    var requests: [String] { box.state.withLock { $0.requests } }
    /// How many connections were accepted.
    var connections: Int { box.state.withLock { $0.connections } }

    private init(port: Int, channel: any Channel, box: Box) {
        self.port = port
        self.channel = channel
        self.box = box
    }

    static func start(replies: [Reply]) async throws -> ScriptedHTTPServer {
        let box = Box(State(replies: replies))
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .childChannelInitializer { channel in
                box.state.withLock { $0.connections += 1 }
                return channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(Connection(box: box))
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        return ScriptedHTTPServer(port: channel.localAddress!.port!, channel: channel, box: box)
    }

    func stop() async {
        try? await channel.close()
    }

    /// Shares the state between the server object and its connections.
    private final class Box: Sendable {
        let state: Mutex<State>
        init(_ state: State) { self.state = Mutex(state) }
    }

    private final class Connection: ChannelInboundHandler {
        typealias InboundIn = ByteBuffer
        typealias OutboundOut = ByteBuffer
        let box: Box
        var received = ByteBuffer()

        init(box: Box) { self.box = box }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            var chunk = unwrapInboundIn(data)
            received.writeBuffer(&chunk)
            while let request = takeRequest() {
                let reply: Reply? = box.state.withLock { state in
                    state.requests.append(request)
                    return state.replies.isEmpty ? nil : state.replies.removeFirst()
                }
                guard let reply else {
                    context.close(promise: nil)
                    return
                }
                let written = context.writeAndFlush(wrapOutboundOut(ByteBuffer(string: reply.bytes)))
                if reply.close {
                    let channel = context.channel
                    written.whenComplete { _ in channel.close(promise: nil) }
                }
            }
        }

        /// A whole request (head and a Content-Length body) off the front of what was received.
        private func takeRequest() -> String? {
            let text = String(buffer: received)
            guard let headEnd = text.utf8.firstRange(of: "\r\n\r\n".utf8) else { return nil }
            let head = String(text[..<headEnd.lowerBound])
            let length =
                head.split(separator: "\r\n").first { $0.lowercased().hasPrefix("content-length:") }
                .flatMap { Int($0.dropFirst("content-length:".count).trimmingPrefix(" ")) } ?? 0
            let total = text.utf8.distance(from: text.utf8.startIndex, to: headEnd.upperBound) + length
            guard received.readableBytes >= total else { return nil }
            return received.readString(length: total)
        }
    }
}
