import Emulator
import Hummingbird
import HummingbirdCore
import Logging
import ServiceLifecycle

/// A Hummingbird router served on a loopback address, on a free port unless one is given: the
/// servers tests and benchmarks stand up (a JWKS endpoint, a fake Runtime API). Test support
/// only: no product links it, so the emulator and the functions never link Hummingbird.
///
/// It stops by graceful shutdown, never by cancelling the task that serves it. Hummingbird's
/// server hands accepted connections over as `NIOAsyncChannel`s through an async sequence; a
/// serving task cancelled while a connection waits in that sequence drops the connection
/// without closing its writer, and NIO ends a debug build's process on that
/// (`Deinited NIOAsyncWriter without calling finish()`, apple/swift-nio#3481). A graceful
/// shutdown closes the listening socket first, so the sequence ends only after every
/// connection in it has been served and closed.
public struct LoopbackHTTPServer: Sendable {
    /// The port it listens on.
    public let port: Int
    private let group: ServiceGroup
    private let task: Task<Void, any Error>

    /// How long a graceful shutdown may wait for requests in flight before they are cancelled
    /// (by then the listener is closed and no connection is left unserved).
    static let shutdownLimit: Duration = .seconds(10)

    /// Starts serving `router` over `server` (plain HTTP/1.1 unless told otherwise, e.g. TLS in
    /// tests); returns once the port is bound.
    public static func start<Context: RequestContext>(
        router: Router<Context>, host: String = "127.0.0.1", port: Int = 0,
        server: HTTPServerBuilder = .http1()
    ) async throws -> LoopbackHTTPServer where Context.Source == ApplicationRequestContextSource {
        try await start(responder: router.buildResponder(), host: host, port: port, server: server)
    }

    /// Starts serving `responder` (every request, whatever its path) as `start(router:)` does.
    public static func start<Responder: HTTPResponder>(
        responder: Responder, host: String = "127.0.0.1", port: Int = 0, server: HTTPServerBuilder = .http1()
    ) async throws -> LoopbackHTTPServer
    where Responder.Context: RequestContext, Responder.Context.Source == ApplicationRequestContextSource {
        var logger = Logger(label: "gatehouse.http")
        logger.logLevel = .critical
        let (ports, continuation) = AsyncStream.makeStream(of: Int?.self)
        let app = Application(
            responder: responder,
            server: server,
            configuration: .init(address: .hostname(host, port: port), serverName: nil),
            onServerRunning: { channel in
                continuation.yield(channel.localAddress?.port)
                continuation.finish()
            },
            logger: logger
        )
        var configuration = ServiceGroupConfiguration(services: [app], logger: logger)
        configuration.maximumGracefulShutdownDuration = shutdownLimit
        let group = ServiceGroup(configuration: configuration)
        let task = Task {
            defer { continuation.finish() }
            try await group.run()
        }
        var iterator = ports.makeAsyncIterator()
        guard let bound = await iterator.next() ?? nil else {
            await group.triggerGracefulShutdown()
            _ = await task.result
            throw ListenError.couldNotBind(host: host, port: port)
        }
        return LoopbackHTTPServer(port: bound, group: group, task: task)
    }

    /// Stops the server gracefully and waits for it to close: the listener first, then each
    /// connection once its request in flight is answered.
    public func stop() async {
        await group.triggerGracefulShutdown()
        _ = await task.result
    }
}
