import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTLS
import NIOCore
import NIOSSL
import ServiceLifecycle
import Synchronization

/// A local HTTPS server with a certificate from `Tests/Support/TLS` (see generate.py there), on
/// a free port: it counts the connections requests arrive on, serves a document the test sets
/// (`/document`), and has a route for each way a call can go wrong.
public final class HTTPSTestServer: Sendable {
    public let port: Int
    private let server: LoopbackHTTPServer
    private let recorder: Recorder

    /// Requests answered so far.
    public var requests: Int { recorder.seen.withLock { $0.requests } }
    /// Connections requests arrived on (by the client's port).
    public var connections: Int { recorder.seen.withLock { $0.connections.count } }
    /// The last request's body and headers (names lower-cased).
    public var lastRequest: (body: [UInt8], headers: [String: String]) {
        recorder.seen.withLock { ($0.lastBody, $0.lastHeaders) }
    }

    public func url(_ path: String, host: String = "127.0.0.1") -> String { "https://\(host):\(port)\(path)" }

    private init(port: Int, server: LoopbackHTTPServer, recorder: Recorder) {
        self.port = port
        self.server = server
        self.recorder = recorder
    }

    /// Serves with `TLS/<certificate>.pem` and its key.
    public static func start(certificate: String = "server") async throws -> HTTPSTestServer {
        let seen = Recorder()
        let router = Router(context: ConnectionContext.self)
        router.get("document") { request, context in
            seen.record(request, context: context, body: [])
            let document = seen.document.withLock { $0 }
            return Response(
                status: .ok, headers: [.contentType: "application/json"],
                body: .init(byteBuffer: ByteBuffer(bytes: document)))
        }
        router.get("ok") { request, context in
            seen.record(request, context: context, body: [])
            return Response(
                status: .ok, headers: [.contentType: "application/json"],
                body: .init(byteBuffer: ByteBuffer(string: #"{"ok":true}"#)))
        }
        router.post("echo") { request, context in
            let body = Array(buffer: try await request.body.collect(upTo: 1 << 20))
            seen.record(request, context: context, body: body)
            return Response(
                status: .created, headers: [.contentType: "application/octet-stream"],
                body: .init(byteBuffer: ByteBuffer(bytes: body)))
        }
        router.get("redirect") { request, context in
            seen.record(request, context: context, body: [])
            return Response(status: .found, headers: [.location: "/ok"])
        }
        router.get("big") { request, context in
            seen.record(request, context: context, body: [])
            return Response(status: .ok, body: .init(byteBuffer: ByteBuffer(repeating: 0x20, count: 2 << 20)))
        }
        router.get("big-chunked") { request, context in
            seen.record(request, context: context, body: [])
            let chunks = (0..<32).map { _ in ByteBuffer(repeating: 0x20, count: 65536) }
            return Response(
                status: .ok,
                body: .init(
                    asyncSequence: AsyncStream { continuation in
                        for chunk in chunks { continuation.yield(chunk) }
                        continuation.finish()
                    }))
        }
        router.get("stall") { request, context in
            seen.record(request, context: context, body: [])
            // Never answers while the server runs; a graceful stop ends the wait.
            try await cancelWhenGracefulShutdown { try await Task.sleep(for: .seconds(600)) }
            return Response(status: .gatewayTimeout)
        }
        let tls = try tlsConfiguration(certificate)
        let server = try await LoopbackHTTPServer.start(router: router, server: .tls(.http1(), tlsConfiguration: tls))
        return HTTPSTestServer(port: server.port, server: server, recorder: seen)
    }

    public func stop() async { await server.stop() }

    /// What `/document` answers from now on.
    public func serve(_ document: [UInt8]) { recorder.document.withLock { $0 = document } }

    /// The path of `Tests/Support/TLS/<name>.pem`: `ca` is the CA to trust.
    public static func file(_ name: String) -> String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("TLS/\(name).pem").path
    }

    private static func tlsConfiguration(_ name: String) throws -> TLSConfiguration {
        let certificate = try NIOSSLCertificate(
            bytes: Array(try Data(contentsOf: URL(fileURLWithPath: file(name)))), format: .pem)
        let key = try NIOSSLPrivateKey(file: file("\(name)-key"), format: .pem)
        var configuration = TLSConfiguration.makeServerConfiguration(
            certificateChain: [.certificate(certificate)], privateKey: .privateKey(key))
        // A stop closes each idle connection with a close_notify and waits for the client's
        // (5 s by default); libcurl's pooled connections never answer one.
        configuration.shutdownTimeout = .milliseconds(100)
        return configuration
    }
}

/// What the server saw.
final class Recorder: Sendable {
    struct Seen {
        var requests = 0
        var connections = Set<Int>()
        var lastBody: [UInt8] = []
        var lastHeaders: [String: String] = [:]
    }

    let seen = Mutex(Seen())
    let document = Mutex<[UInt8]>(Array("{}".utf8))

    func record(_ request: Request, context: ConnectionContext, body: [UInt8]) {
        var headers: [String: String] = [:]
        for field in request.headers { headers[field.name.canonicalName] = field.value }
        seen.withLock {
            $0.requests += 1
            if let port = context.clientPort { $0.connections.insert(port) }
            $0.lastBody = body
            $0.lastHeaders = headers
        }
    }
}
