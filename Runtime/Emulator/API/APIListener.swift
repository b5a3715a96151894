import NIOCore
import NIOHTTP1
import NIOPosix
import Synchronization

/// The local API's HTTP server, listening before its gateway exists: start-api learns its own
/// address (a free port, with `--port 0`) first, then builds the functions' environment with it.
/// Requests before `attach` get 503.
///
/// NIO's request decoder and one handler, as the Runtime API's server is: under load,
/// Hummingbird's per-connection async channel, per-request logger and request/response
/// conversions cost gatehouse more CPU per request than routing, the authorizer cache and the
/// event together.
public final class APIListener: Sendable {
    /// The port it listens on.
    public let port: Int
    private let channel: any Channel
    private let gateway: Gateway

    /// Where requests go; nil until `attach`.
    final class Gateway: Sendable {
        let current = Mutex<LocalAPIGateway?>(nil)
    }

    private init(port: Int, channel: any Channel, gateway: Gateway) {
        self.port = port
        self.channel = channel
        self.gateway = gateway
    }

    /// Binds `host:port` (0: a free port) and starts answering.
    public static func start(host: String, port: Int) async throws -> APIListener {
        let gateway = Gateway()
        let channel: any Channel
        do {
            channel = try await ServerBootstrap(group: EmulatorLoop.shared)
                .serverChannelOption(.backlog, value: 256)
                .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
                .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
                .childChannelOption(.maxMessagesPerRead, value: 16)
                .childChannelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHandler(
                            ByteToMessageHandler(HTTPRequestDecoder(leftOverBytesStrategy: .dropBytes)))
                        try channel.pipeline.syncOperations.addHandler(APIRequestHandler(gateway: gateway))
                    }
                }
                .bind(host: host, port: port)
                .get()
        } catch {
            throw LoopbackHTTPServerError.couldNotBind(host: host, port: port)
        }
        guard let bound = channel.localAddress?.port else {
            try? await channel.close()
            throw LoopbackHTTPServerError.couldNotBind(host: host, port: port)
        }
        return APIListener(port: bound, channel: channel, gateway: gateway)
    }

    /// From now on, requests go to `gateway`.
    public func attach(_ gateway: LocalAPIGateway) {
        self.gateway.current.withLock { $0 = gateway }
    }

    /// Stops listening; connections already open finish on their own.
    public func stop() async {
        try? await channel.close()
    }
}
