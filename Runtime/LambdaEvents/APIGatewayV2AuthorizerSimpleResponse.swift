import GatehouseJSON
import LambdaRuntime

/// The simple response of an HTTP API Lambda authorizer (`EnableSimpleResponses`).
public struct APIGatewayV2AuthorizerSimpleResponse: Codable, Sendable, Equatable {
    public var isAuthorized: Bool
    /// Reaches the function as `requestContext.authorizer.lambda`.
    public var context: [String: JSONValue]?

    public init(isAuthorized: Bool, context: [String: JSONValue]? = nil) {
        self.isAuthorized = isAuthorized
        self.context = context
    }
}
