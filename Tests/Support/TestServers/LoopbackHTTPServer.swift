import Emulator
import Hummingbird
import HummingbirdCore
import Logging

/// A Hummingbird router served on a loopback address, on a free port unless one is given: the
/// servers tests and benchmarks stand up (a JWKS endpoint, a fake Runtime API). Test support
/// only: no product links it, so the emulator and the functions never link Hummingbird.
public struct LoopbackHTTPServer: Sendable {
    /// The port it listens on.
    public let port: Int
    private let task: Task<Void, any Error>

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
        let task = Task { try await app.run() }
        var iterator = ports.makeAsyncIterator()
        guard let bound = await iterator.next() ?? nil else {
            task.cancel()
            throw ListenError.couldNotBind(host: host, port: port)
        }
        return LoopbackHTTPServer(port: bound, task: task)
    }

    /// Stops the server and waits for it to close.
    public func stop() async {
        task.cancel()
        _ = await task.result
    }
}
