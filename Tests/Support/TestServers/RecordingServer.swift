import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import Synchronization

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A loopback HTTP server that records every request it gets, whatever its path, and answers
/// each as `answer` says: the tests capture what an official client library sends (Resend's,
/// Twilio's Python libraries) and what Gatehouse sends for the same call, and compare them; the
/// Twilio Verify stand-in (`TwilioVerifyStandIn`) answers on it; in front of moto_server it counts a
/// process's calls to AWS (`start(forwardingTo:)`).
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
        try await start { recorded in
            await gate?.wait()
            if let latency { try? await Task.sleep(for: latency) }
            let (status, text) = answer(recorded)
            return (status, "application/json", Array(text.utf8))
        }
    }

    /// A stand-in in front of `endpoint` (moto_server): each request recorded, then sent on as it
    /// came (method, path, body, content type and `x-amz-target`), and the answer passed back, so
    /// a test counts the calls a process makes to a real implementation of the service.
    public static func start(forwardingTo endpoint: String) async throws -> RecordingServer {
        try await start { recorded in
            var request = URLRequest(url: URL(string: endpoint + recorded.target)!)
            request.httpMethod = recorded.method
            request.httpBody = Data(recorded.body)
            for name in ["content-type", "x-amz-target", "authorization", "x-amz-date"] {
                if let value = recorded.header(name) { request.setValue(value, forHTTPHeaderField: name) }
            }
            let (data, response) = try await URLSession.shared.data(for: request)
            let http = response as? HTTPURLResponse
            return (
                http?.statusCode ?? 502, http?.value(forHTTPHeaderField: "content-type") ?? "application/json",
                Array(data)
            )
        }
    }

    private static func start(
        answering answer: @escaping @Sendable (Recorded) async throws -> (Int, String, [UInt8])
    ) async throws -> RecordingServer {
        let log = Log()
        let responder = CallbackResponder { (request: Request, _: BasicRequestContext) in
            let body = Array(buffer: try await request.body.collect(upTo: 1 << 20))
            let recorded = Recorded(
                method: request.method.rawValue, target: request.head.path ?? "",
                headers: request.headers.map { Header(name: $0.name.canonicalName, value: $0.value) }, body: body)
            log.seen.withLock { $0.append(recorded) }
            let (status, type, bytes) = try await answer(recorded)
            var headers = HTTPFields()
            headers[.contentType] = type
            return Response(
                status: HTTPResponse.Status(code: status), headers: headers,
                body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
        }
        let server = try await LoopbackHTTPServer.start(responder: responder)
        return RecordingServer(port: server.port, server: server, log: log)
    }

    /// Stops the server.
    public func stop() async {
        await server.stop()
    }
}
