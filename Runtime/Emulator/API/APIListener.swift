import HTTPTypes
import Hummingbird
import NIOCore
import Synchronization

/// The local API's HTTP server, listening before its gateway exists: start-api learns its own
/// address (a free port, with `--port 0`) first, then builds the functions' environment with it.
/// Requests before `attach` get 503.
public final class APIListener: Sendable {
    public let server: LoopbackHTTPServer
    private let gateway: Gateway

    private final class Gateway: Sendable {
        let current = Mutex<LocalAPIGateway?>(nil)
    }

    private init(server: LoopbackHTTPServer, gateway: Gateway) {
        self.server = server
        self.gateway = gateway
    }

    /// Binds `host:port` (0: a free port) and starts answering.
    public static func start(host: String, port: Int) async throws -> APIListener {
        let gateway = Gateway()
        let server = try await LoopbackHTTPServer.start(responder: Responder(gateway: gateway), host: host, port: port)
        return APIListener(server: server, gateway: gateway)
    }

    /// From now on, requests go to `gateway`.
    public func attach(_ gateway: LocalAPIGateway) {
        self.gateway.current.withLock { $0 = gateway }
    }

    private struct Responder: HTTPResponder {
        typealias Context = BasicRequestContext
        let gateway: Gateway

        func respond(to request: Request, context: BasicRequestContext) async throws -> Response {
            guard let gateway = gateway.current.withLock({ $0 }) else {
                return Self.response(.message(503, "Service Unavailable"))
            }
            var request = request
            let body: ByteBuffer
            do {
                body = try await request.collectBody(upTo: LocalAPIGateway.maximumRequestBytes)
            } catch {
                return Self.response(.message(413, "Request Entity Too Large"))
            }
            var headers: [(name: String, value: String)] = []
            for field in request.headers { headers.append((field.name.rawName, field.value)) }
            let answer = await gateway.handle(
                APIRequest(
                    method: request.method.rawValue, rawPath: request.uri.path, rawQuery: request.uri.query ?? "",
                    headers: headers, body: Array(body.readableBytesView)))
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
