import GatehouseJSON
import LambdaEvents
import LambdaRuntime

extension APIGatewayAuthorizerPolicyResponse {
    /// The one IAM policy Gatehouse's authorizer answers REST APIs with: `effect` on
    /// `execute-api:Invoke` for every method and path of the method ARN's stage
    /// (`arn:aws:execute-api:{region}:{account}:{api}/{stage}/*`), so that a cached answer
    /// serves every route.
    public static func stageWide(
        _ effect: PolicyDocument.Statement.Effect, principal: String, methodARN: String,
        context: [String: JSONValue]? = nil
    ) -> Self {
        let parts = methodARN.split(separator: "/", maxSplits: 2, omittingEmptySubsequences: false)
        let resource = parts.count >= 2 ? "\(parts[0])/\(parts[1])/*" : methodARN
        return APIGatewayAuthorizerPolicyResponse(
            principalId: principal,
            policyDocument: PolicyDocument(statement: [PolicyDocument.Statement(effect: effect, resource: [resource])]),
            context: context)
    }
}
