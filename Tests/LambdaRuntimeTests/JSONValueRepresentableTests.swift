import Foundation
import GatehouseJSON
import LambdaEvents
import LambdaRuntime
import Testing

/// The authorizer's answers are written without `JSONEncoder`: the JSON must be the same as
/// their `Encodable` conformance writes, member for member.
struct JSONValueRepresentableTests {
    func encoded(_ value: some Encodable) throws -> JSONValue {
        try JSONValue(parsing: Array(try JSONEncoder().encode(value)))
    }

    static let policies: [APIGatewayAuthorizerPolicyResponse] = [
        APIGatewayAuthorizerPolicyResponse(
            principalId: "u1",
            policyDocument: .init(statement: [.init(effect: .allow, resource: ["arn:aws:execute-api:r:1:a/s/*"])]),
            context: ["sub": "u1", "n": 2]),
        APIGatewayAuthorizerPolicyResponse(
            principalId: "u2",
            policyDocument: .init(statement: [.init(effect: .deny, resource: ["arn:1", "arn:2"])]),
            usageIdentifierKey: "key"),
    ]

    /// An authorizer's IAM policy reads back as the same policy (one-element lists written as
    /// a string, as API Gateway's own examples do).
    @Test(arguments: policies) func policiesReadBack(_ policy: APIGatewayAuthorizerPolicyResponse) throws {
        let decoded = try JSONDecoder().decode(
            APIGatewayAuthorizerPolicyResponse.self, from: Data(policy.serializedJSON))
        #expect(decoded == policy)
    }

    @Test func simpleResponsesMatchTheirEncoding() throws {
        for response in [
            APIGatewayV2AuthorizerSimpleResponse(isAuthorized: false),
            APIGatewayV2AuthorizerSimpleResponse(isAuthorized: true, context: ["sub": "u1"]),
        ] {
            #expect(response.jsonValue == (try encoded(response)))
        }
    }
}
