import LambdaEvents
import LambdaRuntime

/// A Lambda authorizer's event, typed, in any of API Gateway's shapes.
public enum AuthorizerEvent: Sendable, Equatable {
    /// An HTTP API's REQUEST authorizer, payload 2.0; answered with a simple response.
    case httpAPI(APIGatewayV2AuthorizerRequest)
    /// A REST API's TOKEN authorizer; answered with an IAM policy.
    case token(APIGatewayTokenAuthorizerRequest)
    /// A REST API's REQUEST authorizer (or an HTTP API's, payload 1.0); answered with an IAM policy.
    case request(APIGatewayRequestAuthorizerRequest)

    /// The event in `bytes`: payload 2.0 by its `version`, otherwise REST's by its `type`.
    public init(event bytes: UnsafeBufferPointer<UInt8>) throws(InvocationError) {
        do {
            switch try? PayloadFormat(event: bytes) {
            case .v2?:
                self = .httpAPI(try EventDecoding.decode(APIGatewayV2AuthorizerRequest.self, from: bytes))
            case .v1?:
                self = .request(try EventDecoding.decode(APIGatewayRequestAuthorizerRequest.self, from: bytes))
            case nil:
                self = .token(try EventDecoding.decode(APIGatewayTokenAuthorizerRequest.self, from: bytes))
            }
        } catch {
            throw InvocationError(
                type: "InvalidEvent",
                message: "not an API Gateway authorizer event: \(DecodingErrorDescription(error))")
        }
    }

    /// The `Authorization` header's value (a TOKEN event's `authorizationToken`), whatever the
    /// case of the header's name in a REST event.
    public var authorization: String? {
        switch self {
        case .httpAPI(let event): event.headers["authorization"]
        case .token(let event): event.authorizationToken
        case .request(let event): event.headers.first { $0.key.lowercased() == "authorization" }?.value
        }
    }

    /// The method ARN an IAM policy answers for; nil for payload 2.0, which takes a simple answer.
    public var methodARN: String? {
        switch self {
        case .httpAPI: nil
        case .token(let event): event.methodArn
        case .request(let event): event.methodArn
        }
    }
}
