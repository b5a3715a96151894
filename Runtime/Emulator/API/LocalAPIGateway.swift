import Foundation
import HTTPTypes
import Hummingbird
import LambdaRuntime
import NIOCore

/// The local API Gateway: HTTP requests matched to the template's routes, turned into events,
/// run on warm instances of the functions, and answered the way an HTTP API answers.
public final class LocalAPIGateway: Sendable {
    public let routes: RouteTable
    private let pools: [String: FunctionPool]
    private let log: @Sendable (String) -> Void

    /// HTTP API's limit on a request body; Lambda's own 6 MiB applies to the event after.
    public static let maximumRequestBytes = 10 * 1024 * 1024

    public init(routes: RouteTable, pools: [String: FunctionPool], log: @escaping @Sendable (String) -> Void) {
        self.routes = routes
        self.pools = pools
        self.log = log
    }

    /// Answers one request; one access-log line per request.
    public func handle(_ request: APIRequest) async -> APIResponse {
        let start = ContinuousClock.now
        var note = "-"
        let response = await answer(request, note: &note)
        let elapsed = ContinuousClock.now - start
        let milliseconds = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
        log(
            "\(request.method) \(request.rawPath) \(response.status) \(String(format: "%.1f", milliseconds)) ms \(note)"
        )
        return response
    }

    private func answer(_ request: APIRequest, note: inout String) async -> APIResponse {
        guard let match = routes.match(method: request.method, path: request.rawPath) else {
            return .message(404, "Not Found")
        }
        guard let pool = pools[match.route.function] else { return .message(500, "Internal Server Error") }
        let requestID = UUID().uuidString.lowercased()
        let event = HTTPAPIEvent.make(
            request, match: match, requestID: requestID, now: Date().timeIntervalSince1970)
        let payload = ByteBuffer(string: event.serialized)
        guard payload.readableBytes <= PayloadLimits.synchronousPayloadBytes else {
            note = match.route.function
            return .message(413, "Request Entity Too Large")
        }
        let result: FunctionPool.Result?
        do {
            result = try await pool.invoke(payload, requestID: requestID)
        } catch {
            note = "\(match.route.function) could not start: \(error)"
            return .message(500, "Internal Server Error")
        }
        guard let result else {
            note = "\(match.route.function) throttled"
            return .message(503, "Service Unavailable")
        }
        note = "\(match.route.function) \(result.cold ? "cold" : "warm") #\(result.instance)"
        switch result.outcome {
        case .response(let body):
            guard let response = HTTPAPIEvent.response(from: Array(body.readableBytesView)) else {
                note += " malformed response"
                return .message(500, "Internal Server Error")
            }
            return response
        default:
            note += " \(result.outcome.errorType ?? "error")"
            return .message(500, "Internal Server Error")
        }
    }

    /// Stops every function's instances.
    public func stop() async {
        for pool in pools.values { await pool.stop() }
    }

    /// Serves the gateway on `host:port` (0: a free port).
    public func serve(host: String, port: Int) async throws -> LoopbackHTTPServer {
        try await LoopbackHTTPServer.start(responder: Responder(gateway: self), host: host, port: port)
    }

    private struct Responder: HTTPResponder {
        typealias Context = BasicRequestContext
        let gateway: LocalAPIGateway

        func respond(to request: Request, context: BasicRequestContext) async throws -> Response {
            var request = request
            let body: ByteBuffer
            do {
                body = try await request.collectBody(upTo: LocalAPIGateway.maximumRequestBytes)
            } catch {
                return Self.response(.message(413, "Request Entity Too Large"))
            }
            let path = request.uri.path
            let query = request.uri.query ?? ""
            var headers: [(name: String, value: String)] = []
            for field in request.headers { headers.append((field.name.rawName, field.value)) }
            let answer = await gateway.handle(
                APIRequest(
                    method: request.method.rawValue, rawPath: path, rawQuery: query, headers: headers,
                    body: Array(body.readableBytesView)))
            return Self.response(answer)
        }

        static func response(_ answer: APIResponse) -> Response {
            var fields = HTTPFields()
            for header in answer.headers {
                if let name = HTTPField.Name(header.name) { fields.append(HTTPField(name: name, value: header.value)) }
            }
            return Response(
                status: HTTPResponse.Status(code: answer.status), headers: fields,
                body: .init(byteBuffer: ByteBuffer(bytes: answer.body)))
        }
    }
}
