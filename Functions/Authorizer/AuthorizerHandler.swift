import AuthKit
import GatehouseJSON
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
        guard case .object(let request)? = try? JSONValue(parsing: event.readableBytesView) else {
            throw InvocationError(type: "InvalidEvent", message: "the event is not a JSON object")
        }
        let response: JSONValue
        if request["version"] == "2.0" {
            let decision = await authorizer.decide(authorization: request["headers"]?["authorization"]?.stringValue)
            log(decision, flavour: "http-api", context: context)
            if case .allow(_, let claims, _) = decision {
                response = ["isAuthorized": true, "context": .object(claims)]
            } else {
                response = ["isAuthorized": false]
            }
        } else if let methodARN = request["methodArn"]?.stringValue {
            let header: String?
            switch request["type"]?.stringValue {
            case "TOKEN": header = request["authorizationToken"]?.stringValue
            case "REQUEST": header = Self.header("authorization", in: request["headers"])
            default: throw InvocationError(type: "InvalidEvent", message: "unknown authorizer event type")
            }
            let decision = await authorizer.decide(authorization: header)
            log(decision, flavour: "rest", context: context)
            switch decision {
            case .allow(let principal, let claims, _):
                response = Self.policy(.allow, principal: principal, methodARN: methodARN, context: claims)
            case .deny(let principal, _):
                response = Self.policy(.deny, principal: principal, methodARN: methodARN, context: nil)
            case .unauthorized:
                throw InvocationError(type: "Unauthorized", message: "Unauthorized")
            }
        } else {
            throw InvocationError(type: "InvalidEvent", message: "not an API Gateway authorizer event")
        }
        return ByteBuffer(bytes: response.serializedBytes)
    }

    private func log(_ decision: AccessDecision, flavour: String, context: LambdaContext) {
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
                "kid": .string(decision.kid ?? "-"), "api": .string(flavour),
            ]
        )
    }

    /// A header of a REST event, whatever the case of its name.
    static func header(_ name: String, in headers: JSONValue?) -> String? {
        guard case .object(let fields)? = headers else { return nil }
        return fields.first { $0.key.lowercased() == name }?.value.stringValue
    }

    enum Effect: String {
        case allow = "Allow"
        case deny = "Deny"
    }

    /// An IAM policy on every method and path of the method ARN's stage:
    /// `arn:aws:execute-api:{region}:{account}:{api}/{stage}/*`.
    static func policy(
        _ effect: Effect, principal: String, methodARN: String, context: [String: JSONValue]?
    )
        -> JSONValue
    {
        let parts = methodARN.split(separator: "/", maxSplits: 2, omittingEmptySubsequences: false)
        let resource = parts.count >= 2 ? "\(parts[0])/\(parts[1])/*" : methodARN
        var policy: [String: JSONValue] = [
            "principalId": .string(principal),
            "policyDocument": [
                "Version": "2012-10-17",
                "Statement": [
                    ["Action": "execute-api:Invoke", "Effect": .string(effect.rawValue), "Resource": .string(resource)]
                ],
            ],
        ]
        if let context { policy["context"] = .object(context) }
        return .object(policy)
    }
}
