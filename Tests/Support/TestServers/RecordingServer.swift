import HTTPTypes
import Hummingbird
import NIOCore
import Synchronization

/// A loopback HTTP server that records every request it gets, whatever its path, and answers
/// each as `answer` says: the tests capture what an official client library sends (Resend's,
/// Twilio's Python libraries) and what Gatehouse sends for the same call, and compare them; the
/// Twilio Verify stand-in (`TwilioVerifyStandIn`) answers on it.
public final class RecordingServer: Sendable {
    /// One request as it arrived: its header names lower-cased, in order.
    public struct Recorded: Sendable, Equatable {
        public let method: String
        /// The path and query, as sent.
        public let target: String
        public let headers: [Header]
        public let body: [UInt8]

        /// The first value of header `name` (lower-case).
        public func header(_ name: String) -> String? {
            headers.first { $0.name == name }?.value
        }
    }

    /// A header's name (lower-cased) and value.
    public struct Header: Sendable, Equatable {
        public let name: String
        public let value: String
    }

    /// An answer: a status and a JSON body.
    public typealias Answer = (status: Int, body: String)

    /// The requests recorded, shared with the responder.
    private final class Log: Sendable {
        let seen = Mutex<[Recorded]>([])
    }

    public let port: Int
    private let server: LoopbackHTTPServer
    private let log: Log

    /// `http://127.0.0.1:PORT`.
    public var baseURL: String { "http://127.0.0.1:\(port)" }
    /// The requests so far, in order.
    public var requests: [Recorded] { log.seen.withLock { $0 } }

    private init(port: Int, server: LoopbackHTTPServer, log: Log) {
        self.port = port
        self.server = server
        self.log = log
    }

    /// Forgets the requests so far.
    public func clear() {
        log.seen.withLock { $0.removeAll() }
    }

    /// Serves, answering each request (already recorded) with `answer`'s status and JSON body;
    /// with `gate`, only once the gate is open, and with `latency`, that long after the request
    /// (a service that takes its time).
    public static func start(
        holding gate: Gate? = nil, latency: Duration? = nil,
        answer: @escaping @Sendable (Recorded) -> Answer = { _ in (200, "{}") }
    ) async throws -> RecordingServer {
        let log = Log()
        let responder = CallbackResponder { (request: Request, _: BasicRequestContext) in
            let body = Array(buffer: try await request.body.collect(upTo: 1 << 20))
            let recorded = Recorded(
                method: request.method.rawValue, target: request.head.path ?? "",
                headers: request.headers.map { Header(name: $0.name.canonicalName, value: $0.value) }, body: body)
            log.seen.withLock { $0.append(recorded) }
            await gate?.wait()
            if let latency { try? await Task.sleep(for: latency) }
            let (status, text) = answer(recorded)
            return Response(
                status: HTTPResponse.Status(code: status), headers: [.contentType: "application/json"],
                body: .init(byteBuffer: ByteBuffer(string: text)))
        }
        let server = try await LoopbackHTTPServer.start(responder: responder)
        return RecordingServer(port: server.port, server: server, log: log)
    }

    /// Stops the server.
    public func stop() async {
        await server.stop()
    }
}
