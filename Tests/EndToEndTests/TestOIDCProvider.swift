import Crypto
import Foundation
import GatehouseJSON
import Hummingbird
import JOSE
import NIOCore
import Synchronization
import TestServers

/// An OIDC provider for the OAuth tests, on a free loopback port: a token endpoint that checks
/// the client, the redirect URI and the PKCE verifier of codes the test issued (as a person
/// signing in at the provider would make it issue), single-use; and the JWKS of its key.
final class TestOIDCProvider: Sendable {
    static let clientID = "gatehouse-test"
    let port: Int
    let key: RSASigningKey
    private let server: LoopbackHTTPServer
    private let codes: Mutex<[String: Grant]>

    struct Grant {
        let challenge: String
        let redirectURI: String
        let claims: [String: JSONValue]
    }

    var issuer: String { "http://127.0.0.1:\(port)/test-oidc" }
    func url(_ path: String) -> String { "http://127.0.0.1:\(port)\(path)" }

    /// The environment `Authorize` and `OAuthCallback` need to use it.
    var environment: [String: String] {
        [
            "OIDC_AUTHORIZE_URL": url("/oauth2/authorize"), "OIDC_TOKEN_URL": url("/oauth2/token"),
            "OIDC_JWKS_URL": url("/jwks"), "OIDC_ISSUER": issuer, "OIDC_CLIENT_ID": Self.clientID,
        ]
    }

    private init(port: Int, key: RSASigningKey, server: LoopbackHTTPServer) {
        self.port = port
        self.key = key
        self.server = server
        codes = Mutex([:])
    }

    static func start() async throws -> TestOIDCProvider {
        let key = try RSASigningKey.generate()
        let state = Box()
        let router = Router()
        router.get("jwks") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "application/json"],
                body: .init(byteBuffer: ByteBuffer(bytes: try JSONEncoder().encode(JWKSet(keys: [key.publicJWK])))))
        }
        router.post("oauth2/token") { request, _ in
            let body = String(buffer: try await request.body.collect(upTo: 64 * 1024))
            guard let provider = state.provider, let token = provider.redeem(Self.form(body)) else {
                return Response(
                    status: .badRequest, headers: [.contentType: "application/json"],
                    body: .init(byteBuffer: ByteBuffer(string: #"{"error":"invalid_grant"}"#)))
            }
            return Response(
                status: .ok, headers: [.contentType: "application/json"],
                body: .init(byteBuffer: ByteBuffer(string: #"{"id_token":"\#(token)","token_type":"Bearer"}"#)))
        }
        let server = try await LoopbackHTTPServer.start(router: router)
        let provider = TestOIDCProvider(port: server.port, key: key, server: server)
        state.provider = provider
        return provider
    }

    func stop() async { await server.stop() }

    /// What a person signing in at the provider makes it do: issue `code` for this flow.
    func issue(_ code: String, challenge: String, redirectURI: String, claims: [String: JSONValue]) {
        codes.withLock { $0[code] = Grant(challenge: challenge, redirectURI: redirectURI, claims: claims) }
    }

    /// The id token for a valid, unused code; nil otherwise (the code is spent either way).
    private func redeem(_ form: [String: String]) -> String? {
        guard let code = form["code"], let grant = codes.withLock({ $0.removeValue(forKey: code) }),
            form["grant_type"] == "authorization_code", form["client_id"] == Self.clientID,
            form["redirect_uri"] == grant.redirectURI, let verifier = form["code_verifier"],
            Base64URL.encode(Array(SHA256.hash(data: Array(verifier.utf8)))) == grant.challenge
        else { return nil }
        let now = Date().timeIntervalSince1970
        var claims: [String: JSONValue] = [
            "iss": .string(issuer), "aud": .string(Self.clientID), "iat": .number(now), "exp": .number(now + 300),
            "token_use": "id",
        ]
        claims.merge(grant.claims) { $1 }
        return try? JWS.signJWT(claims: claims, with: key)
    }

    static func form(_ body: String) -> [String: String] {
        var fields: [String: String] = [:]
        for pair in body.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1).map {
                String($0).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? ""
            }
            fields[parts[0]] = parts.count > 1 ? parts[1] : ""
        }
        return fields
    }

    /// The provider, once started, for the router's closures.
    private final class Box: @unchecked Sendable {
        var provider: TestOIDCProvider?
    }
}
