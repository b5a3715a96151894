import GatehouseJSON
import JOSE

/// An OIDC issuer whose tokens the authorizer accepts besides Gatehouse's own, checked as
/// strictly as `aws-jwt-verify` checks them: RS256 against the issuer's JWKS, `iss` exact,
/// `exp` and `nbf`, and the client.
///
/// - A Cognito user pool (`https://cognito-idp.{region}.amazonaws.com/{poolId}`): `token_use`
///   must be the configured one (`access` by default, or `id`); an access token names its
///   client in `client_id` (it has no `aud`), an id token in `aud`; either must be one of
///   `clients`.
/// - Any other OIDC issuer: `aud` must name one of `clients`.
public struct TrustedIssuer: Sendable, Equatable {
    /// Which of a Cognito pool's tokens are accepted.
    public enum TokenUse: String, Sendable, Equatable {
        case access, id
    }

    public let issuer: String
    public let jwksURL: String
    /// Client ids (Cognito) or audiences (other issuers) accepted.
    public let clients: Set<String>
    /// Set for a Cognito user pool: the `token_use` required.
    public let cognitoTokenUse: TokenUse?

    public init(issuer: String, jwksURL: String? = nil, clients: Set<String>, tokenUse: TokenUse? = nil) {
        self.issuer = issuer
        self.jwksURL = jwksURL ?? "\(issuer)/.well-known/jwks.json"
        self.clients = clients
        cognitoTokenUse = Self.isCognito(issuer) ? tokenUse ?? .access : nil
    }

    /// Whether `issuer` is a Cognito user pool's.
    public static func isCognito(_ issuer: String) -> Bool {
        guard issuer.hasPrefix("https://cognito-idp."), let url = issuer.split(separator: "/").dropFirst(1).first
        else { return false }
        let host = url.split(separator: ".")
        return host.count == 4 && host[0] == "cognito-idp" && host[2] == "amazonaws" && host[3] == "com"
            && issuer.split(separator: "/").count == 3
    }

    /// The verifier of its signature, issuer, times and (but for Cognito access tokens) audience.
    public var verifier: JWTVerifier {
        JWTVerifier(
            issuer: issuer, audiences: clients, algorithms: [.rs256], checksAudience: cognitoTokenUse != .access)
    }

    /// Why a verified token is refused beyond what `verifier` checks; nil when it is accepted.
    public func refusal(_ token: VerifiedJWT) -> String? {
        guard let tokenUse = cognitoTokenUse else { return nil }
        guard case .string(let use)? = token.claims["token_use"], use == tokenUse.rawValue else {
            return "wrong_token_use"
        }
        if tokenUse == .access {
            guard case .string(let client)? = token.claims["client_id"], clients.contains(client) else {
                return "wrong_client"
            }
        }
        return nil
    }

    /// The authorizer context of an accepted token: `iss` and `subject` (its `sub`, meaningful
    /// only with `iss`), and the claims that are strings among `scope`, `client_id`, `token_use`,
    /// `email`, `username` (Cognito's `cognito:username` or `username`), with `expiresAt`. It has
    /// no `sub` and no `userId`: another issuer's subject is never taken for a Gatehouse user, by
    /// Gatehouse's routes (`signedInUserID(issuer:)`) or by a route that reads `sub`.
    public func context(_ token: VerifiedJWT, subject: String) -> [String: JSONValue] {
        var context: [String: JSONValue] = ["subject": .string(subject), "iss": .string(issuer)]
        for name in ["scope", "client_id", "token_use", "email"] {
            if case .string(let value)? = token.claims[name] { context[name] = .string(value) }
        }
        for name in ["cognito:username", "username"] {
            if case .string(let value)? = token.claims[name] {
                context["username"] = .string(value)
                break
            }
        }
        if let seconds = Int64(exactly: token.expiresAt.rounded(.down)) {
            context["expiresAt"] = .string(String(seconds))
        }
        return context
    }

    /// `TRUSTED_ISSUERS`: a JSON array of `{"issuer", "jwksUrl"?, "clientIds" | "audiences",
    /// "tokenUse"?}`; an https issuer and JWKS URL when `requireHTTPS`.
    public static func list(_ text: String, requireHTTPS: Bool) throws(SettingsError) -> [TrustedIssuer] {
        func invalid(_ why: String) -> SettingsError { .invalid("TRUSTED_ISSUERS", why) }
        guard case .array(let entries)? = try? JSONValue(parsing: Array(text.utf8)) else {
            throw invalid("must be a JSON array of issuers")
        }
        var issuers: [TrustedIssuer] = []
        for entry in entries {
            guard case .string(let issuer)? = entry["issuer"],
                issuer.hasPrefix("https://") || issuer.hasPrefix("http://")
            else { throw invalid("each entry needs an http(s) \"issuer\"") }
            let clientList = entry["clientIds"] ?? entry["audiences"]
            guard case .array(let names)? = clientList, !names.isEmpty else {
                throw invalid("\(issuer): \"clientIds\" (or \"audiences\") must list at least one")
            }
            let clients = Set(names.compactMap(\.stringValue))
            guard clients.count == names.count else { throw invalid("\(issuer): client ids must be strings") }
            var tokenUse: TokenUse?
            if let use = entry["tokenUse"] {
                guard let parsed = use.stringValue.flatMap(TokenUse.init(rawValue:)) else {
                    throw invalid("\(issuer): \"tokenUse\" must be \"access\" or \"id\"")
                }
                tokenUse = parsed
            }
            let trusted = TrustedIssuer(
                issuer: issuer, jwksURL: entry["jwksUrl"]?.stringValue, clients: clients, tokenUse: tokenUse)
            guard !requireHTTPS || (issuer.hasPrefix("https://") && trusted.jwksURL.hasPrefix("https://")) else {
                throw invalid("\(issuer): the issuer and its JWKS must be https, which STAGE prod requires")
            }
            issuers.append(trusted)
        }
        return issuers
    }
}
