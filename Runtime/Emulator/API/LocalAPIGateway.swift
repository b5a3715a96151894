import Foundation
import GatehouseJSON
import LambdaRuntime
import NIOCore

/// The local API Gateway: HTTP requests matched to the template's routes, turned into events
/// (payload 2.0 or 1.0), run on warm instances of the functions, and answered the way an HTTP
/// API or a REST API answers.
///
/// A request goes through named stages, each answering with the response and the note that
/// ends its access-log line: `route` (CORS preflight, 404), `authorize` (the Lambda
/// authorizer, in `LocalAPIGateway+Authorizer.swift`), `invoke` (the event for the route's
/// payload format, run on a warm instance) and `mapAnswer` (the function's answer as HTTP).
public final class LocalAPIGateway: Sendable {
    /// A stage's answer: the response and the access log's note.
    typealias Answer = (response: APIResponse, note: String)

    public let routes: RouteTable
    /// The warm instances of each function it runs, by name.
    public let pools: [String: FunctionPool]
    let authorizers: [String: LambdaAuthorizer]
    /// Nil when decisions are not cached (`--no-authorizer-cache`).
    let cache: AuthorizerCache?
    /// False with `--disable-authorizer`: protected routes run without an authorizer context.
    private let authorizersEnabled: Bool
    private let log: @Sendable (String) -> Void
    /// TOKEN authorizers' `ValidationExpression`s, compiled once.
    let validations: [String: NSRegularExpression]
    /// What a request that matches no route is answered as: REST when every route is REST.
    private let unmatchedKind: HTTPRoute.Kind
    /// The emulator's own routes, asked when no template route matches.
    public let localRoutes: [any LocalRoutes]
    /// The HTTP APIs' JWT authorizers, by name, and their issuers' keys.
    let jwtAuthorizers: [String: JWTAuthorizer]
    let jwtKeys: JWTAuthorizerKeys
    /// For each Lambda authorizer, the functions its own settings point at through this API
    /// (the JWKS route its `JWKS_URL` names): started with it when it is cold.
    let authorizerNeeds: [String: [String]]

    /// HTTP API's limit on a request body; Lambda's own 6 MiB applies to the event after.
    public static let maximumRequestBytes = 10 * 1024 * 1024

    public init(
        routes: RouteTable, pools: [String: FunctionPool], authorizers: [String: LambdaAuthorizer] = [:],
        cache: AuthorizerCache? = nil, authorizersEnabled: Bool = true, localRoutes: [any LocalRoutes] = [],
        jwtAuthorizers: [String: JWTAuthorizer] = [:], jwtKeys: JWTAuthorizerKeys = JWTAuthorizerKeys(),
        log: @escaping @Sendable (String) -> Void
    ) {
        self.jwtAuthorizers = jwtAuthorizers
        self.jwtKeys = jwtKeys
        self.routes = routes
        self.pools = pools
        self.authorizers = authorizers
        self.cache = cache
        self.authorizersEnabled = authorizersEnabled
        self.log = log
        self.localRoutes = localRoutes
        validations = authorizers.compactMapValues { authorizer in
            authorizer.validationExpression.flatMap { try? NSRegularExpression(pattern: $0) }
        }
        unmatchedKind =
            !routes.routes.isEmpty && routes.routes.allSatisfy({ $0.kind == .rest }) ? .rest : .httpAPI
        authorizerNeeds = authorizers.mapValues { authorizer in
            Self.routesNamed(by: pools[authorizer.function]?.function.environment ?? [:], in: routes)
        }
    }

    /// The functions of the GET routes whose path ends one of `environment`'s URLs.
    static func routesNamed(by environment: [String: String], in routes: RouteTable) -> [String] {
        let urls = environment.values.filter { $0.hasPrefix("http://") || $0.hasPrefix("https://") }
        let named = routes.routes.filter { route in
            route.method == "GET" && route.path.hasPrefix("/") && route.path.count > 1 && !route.path.contains("{")
                && urls.contains { $0.hasSuffix(route.path) }
        }
        return Array(Set(named.map(\.function))).sorted()
    }

    /// Answers one request; one access-log line per request.
    public func handle(_ request: APIRequest) async -> APIResponse {
        let start = ContinuousClock.now
        let (response, note) = await route(request)
        // Tenths of a millisecond by hand: `String(format:)` cost a few percent of a request.
        let tenths = Int(((ContinuousClock.now - start).milliseconds * 10).rounded())
        log("\(request.method) \(request.rawPath) \(response.status) \(tenths / 10).\(tenths % 10) ms \(note)")
        return response
    }

    /// Route: a CORS preflight is answered here, a request no route matches gets 404; the
    /// others go on to `authorize`, and an HTTP API's CORS headers go on their answer.
    private func route(_ request: APIRequest) async -> Answer {
        if let preflight = preflight(request) { return preflight }
        guard let match = routes.match(method: request.method, path: request.rawPath) else {
            for local in localRoutes {
                if let answer = await local.answer(request, gateway: self) { return (answer, "(local)") }
            }
            return (.Gateway.notFound(unmatchedKind), "-")
        }
        var (response, note) = await authorize(request, match: match)
        if match.route.kind == .httpAPI, let cors = match.route.cors, let origin = request.values(of: "origin").first {
            cors.apply(to: &response, origin: origin)
        }
        return (response, note)
    }

    /// The answer to a CORS preflight for a route with CORS settings; nil for anything else.
    private func preflight(_ request: APIRequest) -> Answer? {
        guard CORSConfiguration.isPreflight(request),
            let asked = request.values(of: "access-control-request-method").first,
            let route = routes.match(method: asked, path: request.rawPath)?.route, let cors = route.cors
        else { return nil }
        return (cors.preflight(request, kind: route.kind), "CORS preflight")
    }

    /// Authorize: a route behind a Lambda authorizer goes on to `invoke` only when its
    /// authorizer allows the request; the refusal is the answer otherwise.
    private func authorize(_ request: APIRequest, match: RouteTable.Match) async -> Answer {
        let requestID = RequestID.make()
        guard pools[match.route.function] != nil else { return (.Gateway.integrationFailure(match.route.kind), "-") }
        guard let name = match.route.authorizer, authorizersEnabled else {
            return await invoke(request, match: match, requestID: requestID, granted: nil, authNote: "")
        }
        if let jwtAuthorizer = jwtAuthorizers[name] {
            await startEarly(for: match.route.function, behind: name)
            do {
                let grant = try await decideJWT(request, authorizer: jwtAuthorizer, route: match.route)
                return await invoke(
                    request, match: match, requestID: requestID, granted: nil, jwt: grant, authNote: " (\(name) jwt)")
            } catch {
                return (error.response, "\(name) \(error.reason)")
            }
        }
        do {
            let (answer, how) = try await decide(request, match: match, authorizer: name, requestID: requestID)
            return await invoke(
                request, match: match, requestID: requestID, granted: answer, authNote: " (\(name) \(how))")
        } catch {
            return (error.response, "\(name) \(error.reason)")
        }
    }

    /// Starts what a request behind an authorizer will need while the authorizer decides: the
    /// route's function, and what a Lambda authorizer's settings point at (its JWKS route), so
    /// that their cold starts overlap instead of following one another. Called only when the
    /// decision will take time (an authorizer to invoke, not a cached answer or a missing identity).
    func startEarly(for function: String, behind authorizer: String) async {
        await pools[function]?.startEarly()
        for needed in authorizerNeeds[authorizer] ?? [] { await pools[needed]?.startEarly() }
    }

    /// Invoke: the event in the route's payload format, run on a warm instance of its function.
    private func invoke(
        _ request: APIRequest, match: RouteTable.Match, requestID: String, granted: AuthorizerAnswer?,
        jwt: JWTGrant? = nil, authNote: String
    ) async -> Answer {
        let route = match.route
        guard let pool = pools[route.function] else { return (.Gateway.integrationFailure(route.kind), "-") }
        let payload = ByteBuffer(
            bytes: event(for: request, match: match, requestID: requestID, granted: granted, jwt: jwt))
        guard payload.readableBytes <= PayloadLimits.synchronousPayloadBytes else {
            return (.Gateway.tooLarge(route.kind), route.function)
        }
        let result: FunctionPool.Result?
        do {
            result = try await pool.invoke(payload, requestID: requestID)
        } catch {
            return (.Gateway.integrationFailure(route.kind), "\(route.function) could not start: \(error)")
        }
        guard let result else { return (.Gateway.throttled(route.kind), "\(route.function) throttled") }
        let note = "\(route.function) \(result.cold ? "cold" : "warm") #\(result.instance)\(authNote)"
        return mapAnswer(result.outcome, route: route, note: note)
    }

    /// The event the route's function gets, in the route's payload format.
    private func event(
        for request: APIRequest, match: RouteTable.Match, requestID: String, granted: AuthorizerAnswer?,
        jwt: JWTGrant?
    ) -> [UInt8] {
        let now = Date().timeIntervalSince1970
        switch match.route.payloadFormat {
        case .v2:
            return HTTPAPIEvent.payload(
                request, match: match, requestID: requestID, now: now, authorizer: granted?.context,
                jwt: jwt?.authorizer["jwt"])
        case .v1:
            return PayloadV1Event.make(
                request, match: match, requestID: requestID, now: now,
                authorizer: granted.map(Self.v1Context) ?? jwt?.authorizer
            ).serializedBytes
        }
    }

    /// Map the answer: the function's response, read in the route's payload format, as HTTP; a
    /// failed invocation or a malformed response is the gateway's 500 (REST: 502).
    private func mapAnswer(_ outcome: InvocationOutcome, route: HTTPRoute, note: String) -> Answer {
        guard case .response(let body) = outcome else {
            return (.Gateway.integrationFailure(route.kind), "\(note) \(outcome.errorType ?? "error")")
        }
        let bytes = Array(body.readableBytesView)
        let response: APIResponse? =
            switch route.payloadFormat {
            case .v2: HTTPAPIEvent.response(from: bytes)
            case .v1: PayloadV1Event.response(from: bytes, rest: route.kind == .rest)
            }
        guard let response else { return (.Gateway.integrationFailure(route.kind), "\(note) malformed response") }
        return (response, note)
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

    /// Starts, in the background, an instance of every Lambda authorizer's function that a route
    /// names and of what its settings point at through this API (its JWKS route): the first
    /// authorized request then waits for no authorizer's cold start or key fetch, only for its
    /// route's function. One no route names (the template's `aal2` authorizer until an app's
    /// route uses it) starts at its first event, as a function does. Called once the gateway
    /// answers, since the authorizer fetches its keys as it starts.
    public func startAuthorizersEarly() async {
        guard authorizersEnabled else { return }
        let named = Set(routes.routes.compactMap(\.authorizer))
        for (name, authorizer) in authorizers where named.contains(name) {
            await startEarly(for: authorizer.function, behind: name)
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
