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
/// signing in at the provider would make it issue), single-use; the JWKS of its key; an
/// authorize endpoint that signs in the person the test named (`signInAs`) at once, for a
/// browser to follow; and the ID tokens its SDK would give an app (`idToken`). With
/// `requireClientSecret`, its token endpoint also wants the client's secret (HTTP Basic).
final class TestOIDCProvider: Sendable {
    static let clientID = "gatehouse-test"
    let port: Int
    let key: RSASigningKey
    private let server: LoopbackHTTPServer
    private let codes: Mutex<[String: Grant]>
    private let person: Mutex<[String: JSONValue]?>
    private let clientSecret: Mutex<String?>

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
        person = Mutex(nil)
        clientSecret = Mutex(nil)
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
            let authorization = request.headers[.authorization]
            guard let provider = state.provider,
                let token = provider.redeem(Self.form(body), authorization: authorization)
            else {
                return Response(
                    status: .badRequest, headers: [.contentType: "application/json"],
                    body: .init(byteBuffer: ByteBuffer(string: #"{"error":"invalid_grant"}"#)))
            }
            return Response(
                status: .ok, headers: [.contentType: "application/json"],
                body: .init(byteBuffer: ByteBuffer(string: #"{"id_token":"\#(token)","token_type":"Bearer"}"#)))
        }
        router.get("oauth2/authorize") { request, _ in
            let query = request.uri.queryParameters
            guard let provider = state.provider, let location = provider.authorize(query) else {
                return Response(status: .badRequest)
            }
            return Response(status: .found, headers: [.location: location])
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

    /// The person the authorize endpoint signs in from now on (their claims), or nobody (nil:
    /// it refuses).
    func signInAs(_ claims: [String: JSONValue]?) { person.withLock { $0 = claims } }

    /// The secret the token endpoint wants from the client from now on (nil: none, a public client).
    func requireClientSecret(_ secret: String?) { clientSecret.withLock { $0 = secret } }

    /// The authorize endpoint's redirect for `query`: a code for the person, issued for the
    /// client's challenge and redirect URI, back with the state; nil for another client.
    private func authorize(_ query: Hummingbird.Parameters) -> String? {
        guard let claims = person.withLock({ $0 }), query["client_id"].map(String.init) == Self.clientID,
            let redirect = query["redirect_uri"].map(String.init),
            let challenge = query["code_challenge"].map(String.init), query["code_challenge_method"] == "S256"
        else { return nil }
        let code = "code-\(UInt64.random(in: 0...UInt64.max))"
        issue(code, challenge: challenge, redirectURI: redirect, claims: claims)
        var location = URLComponents(string: redirect)
        location?.queryItems = [
            URLQueryItem(name: "code", value: code),
            URLQueryItem(name: "state", value: query["state"].map(String.init)),
        ]
        return location?.string
    }

    /// An ID token as the provider's SDK gives an app (Google Sign-In on a phone): for this
    /// provider's client, valid for 5 minutes, with `claims` over those.
    func idToken(_ claims: [String: JSONValue]) throws -> String {
        let now = Date().timeIntervalSince1970
        var all: [String: JSONValue] = [
            "iss": .string(issuer), "aud": .string(Self.clientID), "iat": .number(now), "exp": .number(now + 300),
            "token_use": "id",
        ]
        all.merge(claims) { $1 }
        return try JWS.signJWT(claims: all, with: key)
    }

    /// The id token for a valid, unused code; nil otherwise (the code is spent either way).
    private func redeem(_ form: [String: String], authorization: String?) -> String? {
        let wanted = clientSecret.withLock { $0 }.map {
            "Basic " + Data("\(Self.clientID):\($0)".utf8).base64EncodedString()
        }
        guard let code = form["code"], let grant = codes.withLock({ $0.removeValue(forKey: code) }),
            wanted == nil || authorization == wanted,
            form["grant_type"] == "authorization_code", form["client_id"] == Self.clientID,
            form["redirect_uri"] == grant.redirectURI, let verifier = form["code_verifier"],
            Base64URL.encode(Array(SHA256.hash(data: Array(verifier.utf8)))) == grant.challenge
        else { return nil }
        return try? idToken(grant.claims)
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
