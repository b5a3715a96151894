import Foundation
import GatehouseJSON
import LambdaRuntime
import NIOCore

extension LocalAPIGateway {
    /// Why a request does not get past its authorizer: the answer API Gateway gives, and the
    /// access log's reason.
    struct Refusal: Error {
        let response: APIResponse
        let reason: String

        init(_ response: APIResponse, _ reason: String) {
            self.response = response
            self.reason = reason
        }
    }

    /// API Gateway's Lambda authorizer step: 401 without an identity (the authorizer is not
    /// run), the answer from the cache or the authorizer, judged for this request: 403 when it
    /// refuses, 401 when the authorizer failed with `Unauthorized`, 500 when it failed
    /// otherwise or answered something else. Gives the answer and how it was had.
    func decide(
        _ request: APIRequest, match: RouteTable.Match, authorizer name: String, requestID: String
    ) async throws(Refusal) -> (AuthorizerAnswer, String) {
        let kind = match.route.kind
        guard let authorizer = authorizers[name], let pool = pools[authorizer.function] else {
            throw Refusal(.Gateway.authorizerFailure(kind), "is not defined")
        }
        let identity = try identity(of: request, for: authorizer, validation: validations[name])
        let resource =
            authorizer.payloadFormat == .v2
            ? HTTPAPIEvent.routeARN(match.route) : PayloadV1Event.methodARN(request, route: match.route)
        let (answer, how): (AuthorizerAnswer, String)
        if let cached = cache?.answer(name, identity: identity) {
            (answer, how) = (cached, "cached")
        } else {
            await startEarly(for: match.route.function, behind: name)
            let event = authorizerEvent(
                authorizer, request: request, match: match, requestID: requestID, identity: identity, resource: resource
            )
            (answer, how) = try await run(
                pool, event: event, requestID: requestID, simple: authorizer.simpleResponses, kind: kind)
            cache?.keep(answer, name, identity: identity, seconds: authorizer.reauthorizeEvery)
        }
        switch answer.verdict(for: resource) {
        case .allowed: return (answer, how)
        case .denied: throw Refusal(.Gateway.forbidden(kind, explicitly: false), "\(how) denied")
        case .explicitlyDenied: throw Refusal(.Gateway.forbidden(kind, explicitly: true), "\(how) denied")
        }
    }

    /// The identity sources' values; 401 when one is missing or a TOKEN fails its
    /// `ValidationExpression`.
    private func identity(
        of request: APIRequest, for authorizer: LambdaAuthorizer, validation: NSRegularExpression?
    ) throws(Refusal) -> [String] {
        let identity = authorizer.identityHeaders.map { request.values(of: $0).joined(separator: ",") }
        guard identity.allSatisfy({ !$0.isEmpty }) else { throw Refusal(.Gateway.unauthorized, "no identity") }
        if let validation {
            let token = identity[0]
            let whole = NSRange(token.startIndex..., in: token)
            guard validation.firstMatch(in: token, options: [.anchored], range: whole)?.range == whole else {
                throw Refusal(.Gateway.unauthorized, "token fails ValidationExpression")
            }
        }
        return identity
    }

    /// The authorizer's event: TOKEN, or REQUEST in the authorizer's payload format.
    private func authorizerEvent(
        _ authorizer: LambdaAuthorizer, request: APIRequest, match: RouteTable.Match, requestID: String,
        identity: [String], resource: String
    ) -> JSONValue {
        let now = Date().timeIntervalSince1970
        switch (authorizer.payloadType, authorizer.payloadFormat) {
        case (.token, _):
            return PayloadV1Event.tokenEvent(token: identity[0], methodARN: resource)
        case (.request, .v2):
            return HTTPAPIEvent.authorizerEvent(
                request, match: match, requestID: requestID, now: now, identity: identity)
        case (.request, .v1):
            return PayloadV1Event.requestAuthorizerEvent(
                request, match: match, requestID: requestID, now: now, identity: identity)
        }
    }

    /// Runs the authorizer function; its parsed answer and how it ran (cold or warm, which
    /// instance).
    private func run(
        _ pool: FunctionPool, event: JSONValue, requestID: String, simple: Bool, kind: HTTPRoute.Kind
    ) async throws(Refusal) -> (AuthorizerAnswer, String) {
        let result = try? await pool.invoke(ByteBuffer(bytes: event.serializedBytes), requestID: requestID)
        guard let result else { throw Refusal(.Gateway.authorizerFailure(kind), "throttled or failed") }
        let how = "\(result.cold ? "cold" : "warm") #\(result.instance)"
        if case .functionError(_, let payload) = result.outcome,
            (try? JSONValue(parsing: payload.readableBytesView))?["errorMessage"]?.stringValue == "Unauthorized"
        {
            throw Refusal(.Gateway.unauthorized, "\(how) unauthorized")
        }
        guard case .response(let body) = result.outcome,
            let parsed = AuthorizerAnswer.parse(Array(body.readableBytesView), simple: simple)
        else {
            let expected = simple ? "not a simple response" : "not an IAM policy answer"
            throw Refusal(.Gateway.authorizerFailure(kind), "\(how) failed: \(result.outcome.errorType ?? expected)")
        }
        return (parsed, how)
    }
}
