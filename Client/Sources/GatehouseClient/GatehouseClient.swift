import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The client side of Gatehouse for an app: it signs in (with the auth code a sign-in returned,
/// a phone code, Sign in with Apple, a password, or any session answer the app got itself),
/// keeps the tokens in a `TokenStore`, hands out an access token that is valid for at least
/// `refreshMargin` more (refreshing it when less remains), and signs out.
///
/// - Concurrent `accessToken()` calls that need a refresh share one `/auth/refresh` call.
/// - A refresh the server refuses (the refresh token expired, was revoked, or was reused, which
///   ended its session) clears the tokens and reports `GatehouseClientError.signedOut`; so does a
///   refresh token past its known expiry, without a call. A network failure leaves them, for a
///   later try.
/// - Built on Foundation's `URLSession`, for Apple platforms and Linux alike; no UIKit.
public actor GatehouseClient {
    /// A token with less than this left is refreshed before it is handed out: 5 minutes.
    public static let refreshMargin: TimeInterval = 300

    public let baseURL: URL
    /// The app's id, as registered with `gatehouse apps add`.
    public let app: String
    private let store: any TokenStore
    private let session: URLSession
    private let now: @Sendable () -> Date
    private var cached: GatehouseTokens?
    private var loaded = false
    private var refreshing: Task<GatehouseTokens, any Error>?

    /// A client of the Gatehouse API at `baseURL` for `app`. `now` is the clock (injected by
    /// tests).
    public init(
        baseURL: URL, app: String, tokenStore: any TokenStore = InMemoryTokenStore(), session: URLSession = .shared,
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.baseURL = baseURL
        self.app = app
        store = tokenStore
        self.session = session
        self.now = now
    }

    /// Who is signed in, if anyone.
    public var user: GatehouseUser? {
        get async throws { try await tokens()?.user }
    }

    /// The tokens kept, if anyone is signed in: the refresh token's expiry among them.
    public var tokens: GatehouseTokens? {
        get async throws { try await tokens() }
    }

    /// Exchanges the auth code a sign-in returned (with the PKCE verifier when the app sent a
    /// challenge) for tokens, and keeps them.
    @discardableResult
    public func signIn(withCode code: String, codeVerifier: String? = nil) async throws -> GatehouseUser {
        var body = ["code": code, "app": app]
        if let codeVerifier { body["codeVerifier"] = codeVerifier }
        return try await signIn(with: try await sessionAnswer("/auth/exchange", body))
    }

    /// Keeps the session a sign-in answered with (read with `GatehouseSession(answer:)` from a
    /// route the app called itself), and returns who signed in.
    @discardableResult
    public func signIn(with session: GatehouseSession) async throws -> GatehouseUser {
        let tokens = session.tokens(now: now())
        try await keep(tokens)
        return tokens.user
    }

    /// An access token valid for at least `refreshMargin` more: the kept one, or a refreshed one.
    /// `GatehouseClientError.signedOut` when no one is signed in, the refresh token is past its
    /// expiry, or the refresh was refused.
    public func accessToken() async throws -> String {
        guard let tokens = try await tokens() else { throw GatehouseClientError.signedOut }
        if tokens.accessTokenExpiresAt.timeIntervalSince(now()) > Self.refreshMargin { return tokens.accessToken }
        if let end = tokens.refreshTokenExpiresAt, end <= now() {
            try await forget()
            throw GatehouseClientError.signedOut
        }
        return try await refreshed(from: tokens).accessToken
    }

    /// Ends the session on the server (with `everywhere`, every session of the user) and forgets
    /// the tokens. The tokens are forgotten even when the server cannot be reached.
    public func signOut(everywhere: Bool = false) async throws {
        guard let tokens = try await tokens() else { return }
        try await forget()
        _ = try await post(
            "/auth/logout", ["refreshToken": tokens.refreshToken, "scope": everywhere ? "global" : "local"],
            as: LogoutAnswer.self)
    }

    /// The one refresh concurrent callers share.
    func refreshed(from tokens: GatehouseTokens) async throws -> GatehouseTokens {
        if let refreshing { return try await refreshing.value }
        // Refreshed meanwhile by another caller: its tokens, not a second refresh of the old one.
        if let current = cached, current.refreshToken != tokens.refreshToken { return current }
        let task = Task { try await self.refresh(tokens) }
        refreshing = task
        defer { refreshing = nil }
        return try await task.value
    }

    private func refresh(_ tokens: GatehouseTokens) async throws -> GatehouseTokens {
        var fresh: GatehouseTokens
        do {
            fresh = try await sessionAnswer("/auth/refresh", ["refreshToken": tokens.refreshToken]).tokens(now: now())
        } catch GatehouseClientError.refused(status: 401, _, _) {
            try await forget()
            throw GatehouseClientError.signedOut
        }
        // The refresh's answer names no phone number: the sign-in's stays.
        fresh.user.phoneNumber = fresh.user.phoneNumber ?? tokens.user.phoneNumber
        try await keep(fresh)
        return fresh
    }

    private func tokens() async throws -> GatehouseTokens? {
        if !loaded {
            cached = try await store.load()
            loaded = true
        }
        return cached
    }

    private func keep(_ tokens: GatehouseTokens) async throws {
        cached = tokens
        loaded = true
        try await store.save(tokens)
    }

    private func forget() async throws {
        cached = nil
        loaded = true
        try await store.clear()
    }

    private struct LogoutAnswer: Decodable {}

    private struct ErrorAnswer: Decodable {
        let error: String?
        let message: String?
        let code: String?
        let msg: String?

        enum CodingKeys: String, CodingKey {
            case error, message, msg
            case code = "error_code"
        }
    }

    /// POSTs `body` to `path` and reads the session it answers with.
    func sessionAnswer(
        _ path: String, _ body: some Encodable & Sendable, headers: [String: String] = [:]
    ) async throws -> GatehouseSession {
        try GatehouseSession(answer: try await post(path, body, headers: headers))
    }

    /// POSTs `body` as JSON to `path`; a 200's body as `Answer`, anything else an error.
    private func post<Answer: Decodable>(
        _ path: String, _ body: [String: String], as: Answer.Type
    ) async throws -> Answer {
        let data = try await post(path, body)
        do {
            return try JSONDecoder().decode(Answer.self, from: data)
        } catch {
            throw GatehouseClientError.malformedAnswer(status: 200)
        }
    }

    /// POSTs `body` as JSON to `path` (a path with its query) with `headers`; a 200's body, or
    /// `refused` with the server's status and error code (Gatehouse's `error`, Supabase's
    /// `error_code`) and message.
    func post(_ path: String, _ body: some Encodable & Sendable, headers: [String: String] = [:]) async throws -> Data {
        try await send("POST", path, body: try JSONEncoder().encode(body), headers: headers)
    }

    /// Sends a `method` request to `path` with `body` (JSON, when there is one) and `headers`;
    /// what `post` answers (a 204's empty body too, as a removal answers).
    func send(_ method: String, _ path: String, body: Data?, headers: [String: String]) async throws -> Data {
        var base = baseURL.absoluteString
        while base.hasSuffix("/") { base.removeLast() }
        guard let url = URL(string: base + path) else {
            throw GatehouseClientError.malformedAnswer(status: 0)
        }
        var request = URLRequest(url: url)
        request.httpMethod = method
        if let body {
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            request.httpBody = body
        }
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let (data, response) = try await session.data(for: request)
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        guard status == 200 || status == 204 else {
            let refusal = try? JSONDecoder().decode(ErrorAnswer.self, from: data)
            throw GatehouseClientError.refused(
                status: status, code: refusal?.error ?? refusal?.code, message: refusal?.message ?? refusal?.msg)
        }
        return data
    }
}
