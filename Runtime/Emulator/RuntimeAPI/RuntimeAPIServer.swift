import Foundation
import HTTPTypes
import Hummingbird
import LambdaRuntime
import NIOCore

/// An HTTP server speaking the Lambda Runtime API (2018-06-01) for one `RuntimeSession`, on a
/// free loopback port. Paths, headers, status codes and error types follow the AWS documentation,
/// so any runtime interface client works under it, not only ours.
public final class RuntimeAPIServer: Sendable {
    /// `host:port`, the value for `AWS_LAMBDA_RUNTIME_API`.
    public let address: String
    private let server: LoopbackHTTPServer

    private init(address: String, server: LoopbackHTTPServer) {
        self.address = address
        self.server = server
    }

    /// Starts serving `session` on 127.0.0.1 and a free port.
    public static func start(session: RuntimeSession, host: String = "127.0.0.1") async throws -> RuntimeAPIServer {
        let router = Router()
        addRoutes(to: router, session: session)
        let server = try await LoopbackHTTPServer.start(router: router, host: host)
        return RuntimeAPIServer(address: "\(host):\(server.port)", server: server)
    }

    /// Stops the server. End the session first, so that no `/next` is left waiting.
    public func stop() async {
        await server.stop()
    }

    static let prefix = "/2018-06-01/runtime"

    private static func addRoutes(to router: Router<BasicRequestContext>, session: RuntimeSession) {
        router.get("\(prefix)/invocation/next") { _, _ -> Response in
            switch await session.next() {
            case .event(let invocation):
                var headers = HTTPFields()
                headers[.contentType] = "application/json"
                headers[HTTPField.Name("Lambda-Runtime-Aws-Request-Id")!] = invocation.requestID
                let deadline = Date().addingTimeInterval(invocation.timeout.seconds)
                headers[HTTPField.Name("Lambda-Runtime-Deadline-Ms")!] = String(
                    Int64(deadline.timeIntervalSince1970 * 1000))
                headers[HTTPField.Name("Lambda-Runtime-Invoked-Function-Arn")!] = invocation.invokedFunctionARN
                if let traceID = invocation.traceID {
                    headers[HTTPField.Name("Lambda-Runtime-Trace-Id")!] = traceID
                }
                if let clientContext = invocation.clientContext {
                    headers[HTTPField.Name("Lambda-Runtime-Client-Context")!] = clientContext
                }
                if let cognitoIdentity = invocation.cognitoIdentity {
                    headers[HTTPField.Name("Lambda-Runtime-Cognito-Identity")!] = cognitoIdentity
                }
                return Response(status: .ok, headers: headers, body: .init(byteBuffer: invocation.payload))
            case .refused:
                return reply(.invalidStateTransition("the current invocation has no result yet"))
            case .ended:
                return reply(.shuttingDown)
            }
        }
        router.post("\(prefix)/invocation/:requestID/response") { request, context -> Response in
            let requestID = context.parameters.get("requestID") ?? ""
            var request = request
            let body: ByteBuffer
            do {
                body = try await request.collectBody(upTo: PayloadLimits.synchronousPayloadBytes)
            } catch is NIOTooManyBytesError {
                return reply(await session.postOversizedResponse(requestID: requestID))
            }
            return reply(await session.postResponse(requestID: requestID, body: body))
        }
        router.post("\(prefix)/invocation/:requestID/error") { request, context -> Response in
            let requestID = context.parameters.get("requestID") ?? ""
            let errorType = request.headers[HTTPField.Name("Lambda-Runtime-Function-Error-Type")!]
            var request = request
            guard let body = try? await request.collectBody(upTo: PayloadLimits.synchronousPayloadBytes) else {
                return reply(.payloadTooLarge)
            }
            return reply(await session.postError(requestID: requestID, body: body, errorTypeHeader: errorType))
        }
        router.post("\(prefix)/init/error") { request, _ -> Response in
            let errorType = request.headers[HTTPField.Name("Lambda-Runtime-Function-Error-Type")!]
            var request = request
            guard let body = try? await request.collectBody(upTo: PayloadLimits.synchronousPayloadBytes) else {
                return reply(.payloadTooLarge)
            }
            return reply(await session.postInitError(body: body, errorTypeHeader: errorType))
        }
    }

    private static func reply(_ reply: RuntimeAPIReply) -> Response {
        Response(
            status: HTTPResponse.Status(code: reply.status),
            headers: [.contentType: "application/json"],
            body: .init(byteBuffer: ByteBuffer(string: reply.body))
        )
    }

}
