import AuthKit
import LambdaEvents
import LambdaRuntime
import Logging
import NIOCore

/// The JWT Lambda authorizer for both API Gateway flavours:
///
/// - HTTP API, payload 2.0 with simple responses: `{"isAuthorized": true, "context": {...}}`
///   or `{"isAuthorized": false}`.
/// - REST, TOKEN or REQUEST type: an IAM policy that allows (or, for a valid token without a
///   required scope, denies) `execute-api:Invoke` on the whole stage of the API, so a cached
///   result serves every route; an invalid token fails the invocation with the message
///   `Unauthorized`, which API Gateway answers with 401.
///
/// One log line per decision, with the reason code and the key id, never the token.
struct AuthorizerHandler: ByteLambdaHandler {
    let authorizer: AccessTokenAuthorizer

    func handle(_ event: ByteBuffer, context: LambdaContext) async throws -> ByteBuffer {
        let request = try event.withUnsafeReadableBytes { raw in
            try AuthorizerEvent(event: raw.bindMemory(to: UInt8.self))
        }
        let decision = await authorizer.decide(authorization: request.authorization)
        log(decision, for: request, context: context)
        guard let methodARN = request.methodARN else {
            return ByteBuffer(bytes: Self.simpleResponse(decision).serializedJSON)
        }
        return ByteBuffer(bytes: try Self.policy(decision, methodARN: methodARN).serializedJSON)
    }

    /// An HTTP API's answer: authorized with the claims as context, or not.
    static func simpleResponse(_ decision: AccessDecision) -> APIGatewayV2AuthorizerSimpleResponse {
        guard case .allow(_, let claims, _) = decision else { return .init(isAuthorized: false) }
        return .init(isAuthorized: true, context: claims)
    }

    /// A REST API's answer: a stage-wide Allow or Deny, or the `Unauthorized` failure that API
    /// Gateway turns into 401.
    static func policy(
        _ decision: AccessDecision, methodARN: String
    ) throws(InvocationError)
        -> APIGatewayAuthorizerPolicyResponse
    {
        switch decision {
        case .allow(let principal, let claims, _):
            return .stageWide(.allow, principal: principal, methodARN: methodARN, context: claims)
        case .deny(let principal, _, _):
            return .stageWide(.deny, principal: principal, methodARN: methodARN)
        case .unauthorized:
            throw InvocationError(type: "Unauthorized", message: "Unauthorized")
        }
    }

    private func log(_ decision: AccessDecision, for request: AuthorizerEvent, context: LambdaContext) {
        let outcome: String
        switch decision {
        case .allow: outcome = "allow"
        case .deny: outcome = "deny"
        case .unauthorized: outcome = "unauthorized"
        }
        context.logger.info(
            "authorization decision",
            metadata: [
                "decision": .string(outcome), "reason": .string(decision.reason),
                "kid": .string(decision.kid ?? "-"), "api": .string(request.methodARN == nil ? "http-api" : "rest"),
            ]
        )
    }
}
