import NIOCore
import NIOHTTP1
import NIOPosix

/// An HTTP server speaking the Lambda Runtime API (2018-06-01) for one `RuntimeSession`, on a
/// free loopback port. Paths, headers, status codes and error types follow the AWS documentation,
/// so any runtime interface client works under it, not only ours.
///
/// It is NIO's request decoder and one handler that answers on the event loop: every event
/// passes through here twice (`/next`, then the posted result), and Hummingbird's per-request
/// task and async body stream cost about as much as the rest of start-api's work on a request
/// together.
public final class RuntimeAPIServer: Sendable {
    /// `host:port`, the value for `AWS_LAMBDA_RUNTIME_API`.
    public let address: String
    private let channel: any Channel

    private init(address: String, channel: any Channel) {
        self.address = address
        self.channel = channel
    }

    /// Starts serving `session` on 127.0.0.1 and a free port.
    public static func start(session: RuntimeSession, host: String = "127.0.0.1") async throws -> RuntimeAPIServer {
        let channel = try await ServerBootstrap(group: EmulatorLoop.shared)
            .serverChannelOption(.backlog, value: 16)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(
                        ByteToMessageHandler(HTTPRequestDecoder(leftOverBytesStrategy: .dropBytes)))
                    try channel.pipeline.syncOperations.addHandler(RuntimeAPIHandler(session: session))
                }
            }
            .bind(host: host, port: 0)
            .get()
        guard let port = channel.localAddress?.port else {
            try? await channel.close()
            throw ListenError.couldNotBind(host: host, port: 0)
        }
        return RuntimeAPIServer(address: "\(host):\(port)", channel: channel)
    }

    /// Stops listening. End the session first, so that no `/next` is left waiting; connections
    /// still open close when their runtime's process goes.
    public func stop() async {
        try? await channel.close()
    }

    static let prefix = "/2018-06-01/runtime"
}
