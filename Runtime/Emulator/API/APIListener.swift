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

    /// Counts the open connections, so that one past the limit is closed on arrival.
    final class OpenConnections: Sendable {
        private let count = Atomic(0)

        /// Counts `channel` until it closes, if there is room for it.
        func admit(_ channel: any Channel, limit: Int) -> Bool {
            guard count.add(1, ordering: .relaxed).newValue <= limit else {
                count.subtract(1, ordering: .relaxed)
                return false
            }
            channel.closeFuture.whenComplete { [self] _ in count.subtract(1, ordering: .relaxed) }
            return true
        }
    }

    /// Where requests go; nil until `attach`.
    final class Gateway: Sendable {
        let current = Mutex<LocalAPIGateway?>(nil)
    }

    private init(port: Int, channel: any Channel, gateway: Gateway) {
        self.port = port
        self.channel = channel
        self.gateway = gateway
    }

    /// Binds `host:port` (0: a free port) and starts answering, within `limits`.
    public static func start(host: String, port: Int, limits: APIEdgeLimits = .init()) async throws -> APIListener {
        let gateway = Gateway()
        let open = OpenConnections()
        let decoderLimits = {
            var decoderLimits = NIOHTTPDecoderLimitConfiguration()
            decoderLimits.maxHeaderFieldSize = limits.maximumHeadBytes
            decoderLimits.maxHeaderListSize = limits.maximumHeadBytes
            return decoderLimits
        }()
        let channel: any Channel
        do {
            channel = try await ServerBootstrap(group: EmulatorLoop.shared)
                .serverChannelOption(.backlog, value: 256)
                .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
                .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
                .childChannelOption(.maxMessagesPerRead, value: 16)
                .childChannelInitializer { channel in
                    guard open.admit(channel, limit: limits.maximumConnections) else {
                        return channel.close()
                    }
                    return channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHandler(
                            ByteToMessageHandler(
                                HTTPRequestDecoder(leftOverBytesStrategy: .dropBytes, limitConfiguration: decoderLimits)
                            ))
                        try channel.pipeline.syncOperations.addHandler(
                            APIRequestHandler(gateway: gateway, limits: limits))
                    }
                }
                .bind(host: host, port: port)
                .get()
        } catch {
            throw ListenError.couldNotBind(host: host, port: port)
        }
        guard let bound = channel.localAddress?.port else {
            try? await channel.close()
            throw ListenError.couldNotBind(host: host, port: port)
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
