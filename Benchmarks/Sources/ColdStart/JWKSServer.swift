import Hummingbird
import Logging

/// The JWKS document on a free loopback port, for the Authorizer's cold start (it fetches the
/// keys while it starts). The emulator has no general-purpose HTTP server to lend, so this is
/// Hummingbird directly, as the ceiling benchmark uses it.
struct JWKSServer {
    let port: Int
    private let task: Task<Void, any Error>

    static func start(document: ByteBuffer) async throws -> JWKSServer {
        let router = Router()
        router.get("/.well-known/jwks.json") { _, _ in
            Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: document))
        }
        var logger = Logger(label: "cold-start.jwks")
        logger.logLevel = .critical
        let (ports, bound) = AsyncStream.makeStream(of: Int?.self)
        let app = Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in
                bound.yield(channel.localAddress?.port)
                bound.finish()
            }, logger: logger)
        let task = Task { try await app.run() }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next() ?? nil else {
            task.cancel()
            throw CancellationError()
        }
        return JWKSServer(port: port, task: task)
    }

    func stop() async {
        task.cancel()
        _ = await task.result
    }
}
