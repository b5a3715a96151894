import Foundation
import GatehouseJSON
import LambdaRuntime
import NIOCore

/// The local API Gateway: HTTP requests matched to the template's routes, turned into events
/// (payload 2.0 or 1.0), run on warm instances of the functions, and answered the way an HTTP
/// API or a REST API answers.
public final class LocalAPIGateway: Sendable {
    public let routes: RouteTable
    private let pools: [String: FunctionPool]
    private let authorizers: [String: LambdaAuthorizer]
    /// Nil when decisions are not cached (`--no-authorizer-cache`).
    private let cache: AuthorizerCache?
    /// False with `--disable-authorizer`: protected routes run without an authorizer context.
    private let authorizersEnabled: Bool
    private let log: @Sendable (String) -> Void
    /// TOKEN authorizers' `ValidationExpression`s, compiled once.
    private let validations: [String: NSRegularExpression]
    /// What a request that matches no route is answered as: REST when every route is REST.
    private let unmatchedKind: HTTPRoute.Kind

    /// HTTP API's limit on a request body; Lambda's own 6 MiB applies to the event after.
    public static let maximumRequestBytes = 10 * 1024 * 1024

    public init(
        routes: RouteTable, pools: [String: FunctionPool], authorizers: [String: LambdaAuthorizer] = [:],
        cache: AuthorizerCache? = nil, authorizersEnabled: Bool = true, log: @escaping @Sendable (String) -> Void
    ) {
        self.routes = routes
        self.pools = pools
        self.authorizers = authorizers
        self.cache = cache
        self.authorizersEnabled = authorizersEnabled
        self.log = log
        validations = authorizers.compactMapValues { authorizer in
            authorizer.validationExpression.flatMap { try? NSRegularExpression(pattern: $0) }
        }
        unmatchedKind =
            !routes.routes.isEmpty && routes.routes.allSatisfy({ $0.kind == .rest }) ? .rest : .httpAPI
    }

    /// Answers one request; one access-log line per request.
    public func handle(_ request: APIRequest) async -> APIResponse {
        let start = ContinuousClock.now
        var note = "-"
        let response = await answer(request, note: &note)
        // Tenths of a millisecond by hand: `String(format:)` cost a few percent of a request.
        let tenths = Int(((ContinuousClock.now - start).milliseconds * 10).rounded())
        log("\(request.method) \(request.rawPath) \(response.status) \(tenths / 10).\(tenths % 10) ms \(note)")
        return response
    }

    private func answer(_ request: APIRequest, note: inout String) async -> APIResponse {
        if CORSConfiguration.isPreflight(request),
            let asked = request.values(of: "access-control-request-method").first,
            let route = routes.match(method: asked, path: request.rawPath)?.route, let cors = route.cors
        {
            note = "CORS preflight"
            return cors.preflight(request, kind: route.kind)
        }
        guard let match = routes.match(method: request.method, path: request.rawPath) else {
            return .Gateway.notFound(unmatchedKind)
        }
        var response = await answer(request, match: match, note: &note)
        if match.route.kind == .httpAPI, let cors = match.route.cors, let origin = request.values(of: "origin").first {
            cors.apply(to: &response, origin: origin)
        }
        return response
    }

    private func answer(_ request: APIRequest, match: RouteTable.Match, note: inout String) async -> APIResponse {
        let route = match.route
        guard let pool = pools[route.function] else { return .Gateway.integrationFailure(route.kind) }
        let requestID = RequestID.make()
        var granted: AuthorizerAnswer?
        var authNote = ""
        if let name = route.authorizer, authorizersEnabled {
            switch await authorize(request, match: match, authorizer: name, requestID: requestID) {
            case .allowed(let answer, let how):
                granted = answer
                authNote = " (\(name) \(how))"
            case .refused(let response, let why):
                note = "\(name) \(why)"
                return response
            }
        }
        let now = Date().timeIntervalSince1970
        let event =
            route.payloadVersion == "2.0"
            ? HTTPAPIEvent.payload(
                request, match: match, requestID: requestID, now: now, authorizer: granted?.context)
            : PayloadV1Event.make(
                request, match: match, requestID: requestID, now: now, authorizer: granted.map(Self.v1Context)
            ).serializedBytes
        let payload = ByteBuffer(bytes: event)
        guard payload.readableBytes <= PayloadLimits.synchronousPayloadBytes else {
            note = route.function
            return .Gateway.tooLarge(route.kind)
        }
        let result: FunctionPool.Result?
        do {
            result = try await pool.invoke(payload, requestID: requestID)
        } catch {
            note = "\(route.function) could not start: \(error)"
            return .Gateway.integrationFailure(route.kind)
        }
        guard let result else {
            note = "\(route.function) throttled"
            return .Gateway.throttled(route.kind)
        }
        note = "\(route.function) \(result.cold ? "cold" : "warm") #\(result.instance)\(authNote)"
        guard case .response(let body) = result.outcome else {
            note += " \(result.outcome.errorType ?? "error")"
            return .Gateway.integrationFailure(route.kind)
        }
        let bytes = Array(body.readableBytesView)
        let response =
            route.payloadVersion == "2.0"
            ? HTTPAPIEvent.response(from: bytes) : PayloadV1Event.response(from: bytes, rest: route.kind == .rest)
        guard let response else {
            note += " malformed response"
            return .Gateway.integrationFailure(route.kind)
        }
        return response
    }

    /// `requestContext.authorizer` of a 1.0 event: REST flattens the context beside
    /// `principalId`; an HTTP API keeps it under `lambda`.
    private static func v1Context(_ answer: AuthorizerAnswer) -> [String: JSONValue] {
        guard case .policy(let principal, _, let context) = answer else { return ["lambda": .object(answer.context)] }
        var flat = context
        flat["principalId"] = .string(principal)
        flat["integrationLatency"] = 0
        return flat
    }

    private enum Authorization {
        case allowed(AuthorizerAnswer, String)
        case refused(APIResponse, String)
    }

    /// API Gateway's Lambda authorizer step: 401 without an identity (the authorizer is not
    /// run), the answer from the cache or the authorizer, judged for this request: 403 when it
    /// refuses, 401 when the authorizer failed with `Unauthorized`, 500 when it failed
    /// otherwise or answered something else.
    private func authorize(
        _ request: APIRequest, match: RouteTable.Match, authorizer name: String, requestID: String
    ) async -> Authorization {
        let kind = match.route.kind
        guard let authorizer = authorizers[name], let pool = pools[authorizer.function] else {
            return .refused(.Gateway.authorizerFailure(kind), "is not defined")
        }
        let identity = authorizer.identityHeaders.map { request.values(of: $0).joined(separator: ",") }
        guard identity.allSatisfy({ !$0.isEmpty }) else { return .refused(.Gateway.unauthorized, "no identity") }
        if let expression = validations[name] {
            let token = identity[0]
            let whole = NSRange(token.startIndex..., in: token)
            guard expression.firstMatch(in: token, options: [.anchored], range: whole)?.range == whole else {
                return .refused(.Gateway.unauthorized, "token fails ValidationExpression")
            }
        }
        let resource =
            authorizer.payloadVersion == "2.0"
            ? HTTPAPIEvent.routeARN(match.route) : PayloadV1Event.methodARN(request, route: match.route)
        var how = "cached"
        let answer: AuthorizerAnswer
        if let cached = cache?.answer(name, identity: identity) {
            answer = cached
        } else {
            let now = Date().timeIntervalSince1970
            let event: JSONValue =
                switch (authorizer.payloadType, authorizer.payloadVersion) {
                case (.token, _): PayloadV1Event.tokenEvent(token: identity[0], methodARN: resource)
                case (.request, "2.0"):
                    HTTPAPIEvent.authorizerEvent(
                        request, match: match, requestID: requestID, now: now, identity: identity)
                case (.request, _):
                    PayloadV1Event.requestAuthorizerEvent(
                        request, match: match, requestID: requestID, now: now, identity: identity)
                }
            let result = try? await pool.invoke(ByteBuffer(bytes: event.serializedBytes), requestID: requestID)
            guard let result else { return .refused(.Gateway.authorizerFailure(kind), "throttled or failed") }
            how = "\(result.cold ? "cold" : "warm") #\(result.instance)"
            if case .functionError(_, let payload) = result.outcome,
                (try? JSONValue(parsing: payload.readableBytesView))?["errorMessage"]?.stringValue == "Unauthorized"
            {
                return .refused(.Gateway.unauthorized, "\(how) unauthorized")
            }
            guard case .response(let body) = result.outcome,
                let parsed = AuthorizerAnswer.parse(Array(body.readableBytesView), simple: authorizer.simpleResponses)
            else {
                let expected = authorizer.simpleResponses ? "not a simple response" : "not an IAM policy answer"
                return .refused(
                    .Gateway.authorizerFailure(kind), "\(how) failed: \(result.outcome.errorType ?? expected)")
            }
            cache?.keep(parsed, name, identity: identity, seconds: authorizer.reauthorizeEvery)
            answer = parsed
        }
        switch answer.verdict(for: resource) {
        case .allowed: return .allowed(answer, how)
        case .denied: return .refused(.Gateway.forbidden(kind, explicitly: false), "\(how) denied")
        case .explicitlyDenied: return .refused(.Gateway.forbidden(kind, explicitly: true), "\(how) denied")
        }
    }

    /// Starts one instance of every function now rather than at its first event (SAM's
    /// `--warm-containers EAGER`).
    public func prewarm() async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            for pool in pools.values { group.addTask { try await pool.prewarm() } }
            try await group.waitForAll()
        }
    }

    /// Stops instances idle for `idleTime`, keeping `minimum` of each function.
    public func reapIdle(after idleTime: Duration, keeping minimum: Int) async {
        for pool in pools.values { await pool.reap(idleFor: idleTime, keeping: minimum) }
    }

    /// Stops every function's instances.
    public func stop() async {
        for pool in pools.values { await pool.stop() }
    }
}
