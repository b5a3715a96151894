import Foundation
import LambdaRuntime
import NIOCore

/// The local API Gateway: HTTP requests matched to the template's routes, turned into events,
/// run on warm instances of the functions, and answered the way an HTTP API answers.
public final class LocalAPIGateway: Sendable {
    public let routes: RouteTable
    private let pools: [String: FunctionPool]
    private let authorizers: [String: LambdaAuthorizer]
    /// Nil when decisions are not cached (`--no-authorizer-cache`).
    private let cache: AuthorizerCache?
    /// False with `--disable-authorizer`: protected routes run without an authorizer context.
    private let authorizersEnabled: Bool
    private let log: @Sendable (String) -> Void

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
    }

    /// Answers one request; one access-log line per request.
    public func handle(_ request: APIRequest) async -> APIResponse {
        let start = ContinuousClock.now
        var note = "-"
        let response = await answer(request, note: &note)
        let elapsed = ContinuousClock.now - start
        let milliseconds = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
        log(
            "\(request.method) \(request.rawPath) \(response.status) \(String(format: "%.1f", milliseconds)) ms \(note)"
        )
        return response
    }

    private func answer(_ request: APIRequest, note: inout String) async -> APIResponse {
        guard let match = routes.match(method: request.method, path: request.rawPath) else {
            return .message(404, "Not Found")
        }
        guard let pool = pools[match.route.function] else { return .message(500, "Internal Server Error") }
        let requestID = UUID().uuidString.lowercased()
        var authorizerContext: [String: JSONValue]?
        var authNote = ""
        if let name = match.route.authorizer, authorizersEnabled {
            switch await authorize(request, match: match, authorizer: name, requestID: requestID) {
            case .allowed(let context, let how):
                authorizerContext = context
                authNote = " (\(name) \(how))"
            case .refused(let response, let why):
                note = "\(name) \(why)"
                return response
            }
        }
        let event = HTTPAPIEvent.make(
            request, match: match, requestID: requestID, now: Date().timeIntervalSince1970,
            authorizer: authorizerContext)
        let payload = ByteBuffer(string: event.serialized)
        guard payload.readableBytes <= PayloadLimits.synchronousPayloadBytes else {
            note = match.route.function
            return .message(413, "Request Entity Too Large")
        }
        let result: FunctionPool.Result?
        do {
            result = try await pool.invoke(payload, requestID: requestID)
        } catch {
            note = "\(match.route.function) could not start: \(error)"
            return .message(500, "Internal Server Error")
        }
        guard let result else {
            note = "\(match.route.function) throttled"
            return .message(503, "Service Unavailable")
        }
        note = "\(match.route.function) \(result.cold ? "cold" : "warm") #\(result.instance)\(authNote)"
        switch result.outcome {
        case .response(let body):
            guard let response = HTTPAPIEvent.response(from: Array(body.readableBytesView)) else {
                note += " malformed response"
                return .message(500, "Internal Server Error")
            }
            return response
        default:
            note += " \(result.outcome.errorType ?? "error")"
            return .message(500, "Internal Server Error")
        }
    }

    private enum Authorization {
        case allowed([String: JSONValue], String)
        case refused(APIResponse, String)
    }

    /// API Gateway's Lambda authorizer step: 401 without an identity (the authorizer is not
    /// run), the decision from the cache or the authorizer, 403 when refused, 500 when the
    /// authorizer fails or answers something else.
    private func authorize(
        _ request: APIRequest, match: RouteTable.Match, authorizer name: String, requestID: String
    ) async -> Authorization {
        guard let authorizer = authorizers[name], let pool = pools[authorizer.function] else {
            return .refused(.message(500, "Internal Server Error"), "is not defined")
        }
        let identity = authorizer.identityHeaders.map { request.values(of: $0).joined(separator: ",") }
        guard identity.allSatisfy({ !$0.isEmpty }) else {
            return .refused(.message(401, "Unauthorized"), "no identity")
        }
        var how = "cached"
        var decision = cache?.decision(name, identity: identity)
        if decision == nil {
            let event = HTTPAPIEvent.authorizerEvent(
                request, match: match, requestID: requestID, now: Date().timeIntervalSince1970, identity: identity)
            let result = try? await pool.invoke(ByteBuffer(string: event.serialized), requestID: requestID)
            guard let result else { return .refused(.message(500, "Internal Server Error"), "throttled or failed") }
            how = "\(result.cold ? "cold" : "warm") #\(result.instance)"
            guard case .response(let body) = result.outcome,
                let answer = HTTPAPIEvent.authorizerDecision(from: Array(body.readableBytesView))
            else {
                return .refused(
                    .message(500, "Internal Server Error"),
                    "\(how) failed: \(result.outcome.errorType ?? "not a simple response")")
            }
            cache?.keep(answer, name, identity: identity, seconds: authorizer.reauthorizeEvery)
            decision = answer
        }
        guard let decision, decision.isAuthorized else { return .refused(.message(403, "Forbidden"), "\(how) denied") }
        return .allowed(decision.context, how)
    }

    /// Stops every function's instances.
    public func stop() async {
        for pool in pools.values { await pool.stop() }
    }
}
