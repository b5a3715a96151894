import AuthKit
import Emulator
import Foundation
import GatehouseJSON
import JOSE
import Synchronization

/// A small OIDC provider inside `gatehouse start-api`, under `/_dev/oidc/`, that behaves like
/// Cognito's hosted UI for Gatehouse's one client: discovery, a JWKS of its own key (not
/// Gatehouse's), an authorize page (email, name, Google or Apple; `login_hint` skips it), and a
/// token endpoint that checks the client, its secret, the redirect URI and the PKCE verifier.
/// Codes work once, for a minute, and live in this process only.
///
/// Never deployed: the template's `Oidc*` parameters name the real provider in production;
/// start-api points them here.
public final class DevOIDCProvider: LocalRoutes {
    /// Where its routes live on the local API.
    public static let pathPrefix = "/_dev/oidc"
    /// Gatehouse's client id at the dev provider.
    public static let clientID = "gatehouse-local"
    /// How long an issued code can be redeemed.
    static let codeSeconds = 60.0
    /// How long its id and access tokens last.
    static let tokenSeconds = 3600.0

    /// The local API's base URL, e.g. `http://127.0.0.1:3000`.
    public let baseURL: String
    let key: RSASigningKey
    let clientSecret: String
    let now: @Sendable () -> Double
    private let grants = Mutex<[String: DevProviderGrant]>([:])

    /// A provider on the local API at `baseURL` signing with `key`; the client must present
    /// `clientSecret` at the token endpoint.
    public init(
        baseURL: String, key: RSASigningKey, clientSecret: String,
        now: @escaping @Sendable () -> Double = { Date().timeIntervalSince1970 }
    ) {
        self.baseURL = baseURL
        self.key = key
        self.clientSecret = clientSecret
        self.now = now
    }

    /// Its `iss`.
    public var issuer: String { baseURL + Self.pathPrefix }
    /// Where it serves its public key, which the local template also uses as Apple's.
    public var jwksURL: String { issuer + "/.well-known/jwks.json" }
    /// The one redirect URI it accepts: Gatehouse's callback.
    var redirectURI: String { baseURL + "/auth/callback" }

    /// The template parameters that point the functions at it (see `template.json`).
    public var templateParameters: [String: String] {
        [
            "OidcAuthorizeUrl": issuer + "/oauth2/authorize", "OidcTokenUrl": issuer + "/oauth2/token",
            "OidcJwksUrl": jwksURL, "OidcIssuer": issuer, "OidcClientId": Self.clientID, "AppleJwksUrl": jwksURL,
        ]
    }

    /// The variables the functions get from it: its client secret, directly (`OIDC_CLIENT_SECRET`,
    /// which wins over the template's `OIDC_CLIENT_SECRET_ARN`; deployed, the secret is read from
    /// Secrets Manager, and no template parameter carries it).
    public var functionVariables: [String: String] {
        ["OIDC_CLIENT_SECRET": clientSecret]
    }

    public var routeDescriptions: [String] {
        [
            "GET \(issuer)/.well-known/openid-configuration", "GET \(jwksURL)",
            "GET|POST \(issuer)/oauth2/authorize", "POST \(issuer)/oauth2/token",
        ]
    }

    public func answer(_ request: APIRequest, gateway: LocalAPIGateway) async -> APIResponse? {
        let request = DevRequest(request)
        guard request.path.hasPrefix(Self.pathPrefix + "/") else { return nil }
        switch (request.method, request.path.dropFirst(Self.pathPrefix.count)) {
        case ("GET", "/.well-known/openid-configuration"): return DevPage.json(200, discovery)
        case ("GET", "/.well-known/jwks.json"):
            let body = (try? JSONEncoder().encode(JWKSet(keys: [key.publicJWK]))).map(Array.init) ?? []
            return APIResponse(status: 200, headers: [.init("content-type", "application/json")], body: body)
        case ("GET", "/oauth2/authorize"): return authorize(request.query, request: request)
        case ("POST", "/oauth2/authorize"): return authorize(request.form, request: request)
        case ("POST", "/oauth2/token"): return token(request)
        default: return DevPage.json(404, ["error": "not_found"])
        }
    }

    /// `/.well-known/openid-configuration`.
    private var discovery: [String: JSONValue] {
        [
            "issuer": .string(issuer), "authorization_endpoint": .string(issuer + "/oauth2/authorize"),
            "token_endpoint": .string(issuer + "/oauth2/token"), "jwks_uri": .string(jwksURL),
            "response_types_supported": ["code"], "grant_types_supported": ["authorization_code"],
            "subject_types_supported": ["public"], "id_token_signing_alg_values_supported": ["RS256"],
            "code_challenge_methods_supported": ["S256"], "scopes_supported": ["openid", "email", "profile"],
            "token_endpoint_auth_methods_supported": ["client_secret_basic", "client_secret_post"],
        ]
    }

    /// Records a code for `person` and the request's client; the code to send back.
    func issue(for authorize: DevAuthorizeRequest, person: DevPerson) -> String {
        let code = RandomToken.urlSafe(byteCount: 32)
        let grant = DevProviderGrant(
            clientID: Self.clientID, redirectURI: authorize.redirectURI, challenge: authorize.challenge,
            nonce: authorize.nonce, person: person, expiresAt: now() + Self.codeSeconds)
        grants.withLock { $0[code] = grant }
        return code
    }

    /// The grant for `code`, removed whether or not it is still valid: a code works once.
    func redeem(_ code: String) -> DevProviderGrant? {
        guard let grant = grants.withLock({ $0.removeValue(forKey: code) }), grant.expiresAt > now() else { return nil }
        return grant
    }
}
