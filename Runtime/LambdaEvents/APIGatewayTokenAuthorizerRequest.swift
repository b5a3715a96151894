/// A REST API Lambda authorizer TOKEN event.
public struct APIGatewayTokenAuthorizerRequest: Codable, Sendable, Equatable {
    /// Always `TOKEN`.
    public var type: String
    /// The identity source header's value, e.g. `Bearer eyJ...`.
    public var authorizationToken: String
    /// `arn:aws:execute-api:{region}:{account}:{apiId}/{stage}/{method}/{resource}`.
    public var methodArn: String

    public init(type: String = "TOKEN", authorizationToken: String, methodArn: String) {
        self.type = type
        self.authorizationToken = authorizationToken
        self.methodArn = methodArn
    }
}
