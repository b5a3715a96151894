import Foundation
import GatehouseJSON
import LambdaEvents
import LambdaRuntime
import Testing

/// API Gateway responses are written without `JSONEncoder`: the JSON must be the same as their
/// `Encodable` conformance writes, member for member.
struct JSONValueRepresentableTests {
    func encoded(_ value: some Encodable) throws -> JSONValue {
        try JSONValue(parsing: Array(try JSONEncoder().encode(value)))
    }

    static let v2: [APIGatewayV2Response] = [
        APIGatewayV2Response(statusCode: 200),
        APIGatewayV2Response(
            statusCode: 201,
            headers: [
                "content-type": "application/json", "x-quote": "\"/\\\u{01}é", "X-Upper": "1", "é": "2", "": "3",
            ],
            cookies: ["a=1; HttpOnly", "b=2"], body: #"{"ok":true}"#, isBase64Encoded: false),
        APIGatewayV2Response(statusCode: 302, headers: [:], cookies: [], body: "", isBase64Encoded: true),
        APIGatewayV2Response(
            statusCode: 404, headers: ["content-type": "application/json", "cache-control": "no-store"],
            body: #"{"error":"not_found","message":"No such user."}"#),
    ]

    @Test(arguments: v2) func payload2ResponsesMatchTheirEncoding(_ response: APIGatewayV2Response) throws {
        #expect(response.jsonValue == (try encoded(response)))
        // Written directly, the text is the serialized value's, byte for byte.
        #expect(response.serializedJSON == response.jsonValue.serializedBytes)
    }

    static let v1: [APIGatewayResponse] = [
        APIGatewayResponse(statusCode: 500),
        APIGatewayResponse(
            statusCode: 200, headers: ["a": "1"], multiValueHeaders: ["set-cookie": ["x=1", "y=2"], "empty": []],
            body: "AP8=", isBase64Encoded: true),
    ]

    @Test(arguments: v1) func payload1ResponsesMatchTheirEncoding(_ response: APIGatewayResponse) throws {
        #expect(response.jsonValue == (try encoded(response)))
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
