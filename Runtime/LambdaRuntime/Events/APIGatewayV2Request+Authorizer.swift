import GatehouseJSON

extension APIGatewayV2Request {
    /// A string the Lambda authorizer put in its context (`requestContext.authorizer.lambda`),
    /// e.g. the signed-in user's id; nil without one (the route is not behind the authorizer).
    public func authorizerContext(_ name: String) -> String? {
        requestContext.authorizer?.lambda?[name]?.stringValue
    }
}
