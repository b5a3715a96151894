import Emulator
import HTTPTypes
import Hummingbird
import HummingbirdTLS
import NIOCore
import Synchronization
import TestServers

/// A local JWKS endpoint that counts requests and can be told to misbehave.
final class JWKSServer: Sendable {
    private let script: Script
    private let server: LoopbackHTTPServer
    private let scheme: String

    var url: String { "\(scheme)://127.0.0.1:\(server.port)/.well-known/jwks.json" }
    var requests: Int { script.requests }

    private init(script: Script, server: LoopbackHTTPServer, scheme: String) {
        self.script = script
        self.server = server
        self.scheme = scheme
    }

    /// Serves plain HTTP, or HTTPS with `tls`.
    static func start(_ behaviour: Behaviour, tls: TLSConfiguration? = nil) async throws -> JWKSServer {
        let script = Script(behaviour: behaviour)
        let router = Router()
        router.get(".well-known/jwks.json") { _, _ in try await script.answer() }
        let server = try await LoopbackHTTPServer.start(
            router: router, server: try tls.map { try .tls(.http1(), tlsConfiguration: $0) } ?? .http1())
        return JWKSServer(script: script, server: server, scheme: tls == nil ? "http" : "https")
    }

    func set(_ behaviour: Behaviour) { script.set(behaviour) }

    /// Lets every held request (and later ones) answer.
    func release() { script.release() }

    func stop() async {
        release()
        await server.stop()
    }
}

extension JWKSServer {
    enum Behaviour: Sendable {
        case serve(String)
        case status(Int)
        /// A body of this many bytes, sent with a Content-Length.
        case large(Int)
        /// A body of this many bytes, streamed without a length (chunked).
        case largeChunked(Int)
        /// Headers never come.
        case hang
        /// Waits for `release()` before answering with the document.
        case held(String)
        /// 302 to this location.
        case redirect(String)
    }

    private struct State {
        var behaviour: Behaviour
        var requests = 0
        var waiting: [CheckedContinuation<Void, Never>] = []
        var released = false
    }

    /// What the endpoint answers, and how often it was asked.
    final class Script: Sendable {
        private let state: Mutex<State>

        init(behaviour: Behaviour) {
            state = Mutex(State(behaviour: behaviour))
        }

        var requests: Int { state.withLock { $0.requests } }

        func set(_ behaviour: Behaviour) {
            state.withLock {
                $0.behaviour = behaviour
                $0.released = false
            }
        }

        /// Lets every held request (and later ones) answer.
        func release() {
            let waiting = state.withLock { state in
                state.released = true
                defer { state.waiting = [] }
                return state.waiting
            }
            for continuation in waiting { continuation.resume() }
        }

        func answer() async throws -> Response {
            let behaviour = state.withLock { state in
                state.requests += 1
                return state.behaviour
            }
            let json = HTTPFields([HTTPField(name: .contentType, value: "application/json")])
            switch behaviour {
            case .serve(let document):
                return Response(status: .ok, headers: json, body: .init(byteBuffer: ByteBuffer(string: document)))
            case .status(let code):
                return Response(status: .init(code: code), body: .init(byteBuffer: ByteBuffer(string: "{}")))
            case .large(let bytes):
                let body = ByteBuffer(repeating: UInt8(ascii: " "), count: bytes)
                return Response(status: .ok, headers: json, body: .init(byteBuffer: body))
            case .largeChunked(let bytes):
                let chunks = stride(from: 0, to: bytes, by: 65536).map { _ in
                    ByteBuffer(repeating: UInt8(ascii: " "), count: 65536)
                }
                return Response(status: .ok, headers: json, body: .init(asyncSequence: chunks.async))
            case .redirect(let location):
                return Response(status: .found, headers: [.location: location])
            case .hang:
                try await Task.sleep(for: .seconds(600))
                return Response(status: .gatewayTimeout)
            case .held(let document):
                await withCheckedContinuation { continuation in
                    let resumeNow = state.withLock { state in
                        if state.released { return true }
                        state.waiting.append(continuation)
                        return false
                    }
                    if resumeNow { continuation.resume() }
                }
                return Response(status: .ok, headers: json, body: .init(byteBuffer: ByteBuffer(string: document)))
            }
        }
    }
}

extension Array where Element: Sendable {
    /// The elements as an async sequence.
    var async: AsyncStream<Element> {
        AsyncStream { continuation in
            for element in self { continuation.yield(element) }
            continuation.finish()
        }
    }
}

/// A monotonic clock the test moves by hand.
final class ManualClock: Sendable {
    private let seconds = Mutex(0.0)

    func advance(by delta: Double) { seconds.withLock { $0 += delta } }

    var uptime: @Sendable () -> Double { { [self] in seconds.withLock { $0 } } }
}
