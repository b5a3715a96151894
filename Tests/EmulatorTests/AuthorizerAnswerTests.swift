import Emulator
import GatehouseJSON
import LambdaRuntime
import Testing

/// Authorizer answers as API Gateway reads them, and IAM policies judged per method ARN.
struct AuthorizerAnswerTests {
    let stage = "arn:aws:execute-api:us-east-1:123456789012:local/dev"

    func policy(_ statements: String, context: String = "{}") -> AuthorizerAnswer? {
        AuthorizerAnswer.parse(
            Array(
                #"{"principalId":"ada","policyDocument":{"Version":"2012-10-17","Statement":\#(statements)},"context":\#(context)}"#
                    .utf8),
            simple: false)
    }

    @Test func aPolicyAllowsWhatItNamesAndADenyWins() throws {
        let answer = try #require(
            policy(
                #"[{"Action":"execute-api:Invoke","Effect":"Allow","Resource":["\#(stage)/GET/items/*","\#(stage)/*/files/?"]},"#
                    + #"{"Action":"execute-api:*","Effect":"Deny","Resource":"\#(stage)/GET/items/secret"}]"#,
                context: #"{"userId":"ada","admin":false,"level":3}"#))
        #expect(answer.verdict(for: "\(stage)/GET/items/7") == .allowed)
        #expect(answer.verdict(for: "\(stage)/GET/items/a/b") == .allowed)  // `*` crosses `/`
        #expect(answer.verdict(for: "\(stage)/POST/files/x") == .allowed)
        #expect(answer.verdict(for: "\(stage)/POST/files/xy") == .denied)  // `?` is one character
        #expect(answer.verdict(for: "\(stage)/GET/items/secret") == .explicitlyDenied)
        #expect(answer.verdict(for: "\(stage)/DELETE/items/7") == .denied)
        #expect(answer.context == ["userId": "ada", "admin": false, "level": 3])
        // Another action allows nothing.
        let other = try #require(policy(#"[{"Action":"s3:GetObject","Effect":"Allow","Resource":"*"}]"#))
        #expect(other.verdict(for: "\(stage)/GET/items/7") == .denied)
    }

    @Test func answersAPIGatewayCannotUseAreRefused() {
        #expect(policy(#"[{"Action":"execute-api:Invoke","Effect":"Maybe","Resource":"*"}]"#) == nil)
        #expect(policy(#"[{"Action":"execute-api:Invoke","Effect":"Allow"}]"#) == nil)
        #expect(policy(#""not a list""#) == nil)
        // A policy's context holds strings, numbers and booleans only.
        #expect(
            policy(#"[{"Action":"execute-api:Invoke","Effect":"Allow","Resource":"*"}]"#, context: #"{"a":{"b":1}}"#)
                == nil)
        #expect(AuthorizerAnswer.parse(Array(#"{"policyDocument":{"Statement":[]}}"#.utf8), simple: false) == nil)
        #expect(AuthorizerAnswer.parse(Array(#"{"isAuthorized":"yes"}"#.utf8), simple: true) == nil)
        #expect(AuthorizerAnswer.parse(Array("not json".utf8), simple: true) == nil)
        #expect(
            AuthorizerAnswer.parse(Array(#"{"isAuthorized":true}"#.utf8), simple: true)
                == .simple(isAuthorized: true, context: [:]))
    }
}
