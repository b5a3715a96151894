import Foundation
import GatehouseJSON
import JOSE

extension LocalAPIGateway {
    /// What a JWT authorizer let through: the token's claims (as strings, as API Gateway passes
    /// them) and, on a route with scopes, the token's scopes.
    struct JWTGrant: Sendable {
        let claims: [String: JSONValue]
        let scopes: [String]?

        /// `requestContext.authorizer` of the route's event.
        var authorizer: [String: JSONValue] {
            ["jwt": ["claims": .object(claims), "scopes": scopes.map { .array($0.map(JSONValue.string)) } ?? .null]]
        }
    }

    /// API Gateway's JWT authorizer: the bearer token in the identity header, verified against
    /// the issuer's keys (RS256, `iss` exact, `exp`, `nbf`), its `aud` or `client_id` one of the
    /// audiences, and on a route with `AuthorizationScopes` one of them in its `scope`. 401
    /// (or 403 for a missing scope) with `www-authenticate`, as API Gateway answers.
    func decideJWT(
        _ request: APIRequest, authorizer: JWTAuthorizer, route: HTTPRoute
    ) async throws(Refusal) -> JWTGrant {
        guard let header = request.values(of: authorizer.identityHeader).first, !header.isEmpty else {
            throw Self.jwtRefusal(401, route: route, error: nil, "no token")
        }
        let token = header.lowercased().hasPrefix("bearer ") ? String(header.dropFirst(7)) : header
        let issuer = jwtKeys.issuer(of: authorizer)
        let verified: VerifiedJWT
        do {
            let jws = try issuer.verifier.parse(token)
            let keys = try await issuer.keys.keys(for: jws.kid)
            verified = try issuer.verifier.verify(jws, keys: keys, now: Date().timeIntervalSince1970)
        } catch let error as JWTError {
            throw Self.jwtRefusal(401, route: route, error: Self.description(error), error.reasonCode)
        } catch {
            throw Self.jwtRefusal(401, route: route, error: "signing keys unavailable", "jwks unavailable")
        }
        guard Self.audiences(of: verified).contains(where: authorizer.audiences.contains) else {
            throw Self.jwtRefusal(
                401, route: route, error: "the token does not have a valid audience", "wrong audience")
        }
        let scopes = Self.scopes(of: verified)
        guard route.authorizationScopes.isEmpty || route.authorizationScopes.contains(where: scopes.contains) else {
            throw Self.jwtRefusal(403, route: route, error: nil, "missing scope")
        }
        return JWTGrant(
            claims: verified.claims.dictionary.compactMapValues(Self.claimText),
            scopes: route.authorizationScopes.isEmpty ? nil : scopes)
    }

    /// The refusal and its `www-authenticate`: `error="invalid_token"` with a description for
    /// a bad token, `error="insufficient_scope"` for a 403.
    private static func jwtRefusal(_ status: Int, route: HTTPRoute, error: String?, _ reason: String) -> Refusal {
        let scope = route.authorizationScopes.joined(separator: " ")
        var challenge = #"Bearer scope="\#(scope)""#
        if status == 403 {
            challenge += #" error="insufficient_scope" error_description="expected scopes: [\#(scope)]""#
        } else if let error {
            challenge += #" error="invalid_token" error_description="\#(error)""#
        }
        var response = status == 403 ? APIResponse.message(403, "Forbidden") : APIResponse.Gateway.unauthorized
        response.headers.append(.init("www-authenticate", challenge))
        return Refusal(response, "jwt \(reason)")
    }

    private static func description(_ error: JWTError) -> String {
        switch error {
        case .expired: "the token has expired"
        case .notYetValid: "the token is not valid yet"
        case .wrongIssuer: "the token does not have a valid issuer"
        default: "the token could not be verified"
        }
    }

    private static func audiences(of token: VerifiedJWT) -> [String] {
        var found: [String] = []
        switch token.claims["aud"] {
        case .string(let audience)?: found.append(audience)
        case .array(let list)?: found += list.compactMap(\.stringValue)
        default: break
        }
        if case .string(let client)? = token.claims["client_id"] { found.append(client) }
        return found
    }

    /// `scope` (space-separated) or `scp` (a list or a string).
    private static func scopes(of token: VerifiedJWT) -> [String] {
        for name in ["scope", "scp"] {
            switch token.claims[name] {
            case .string(let text)?: return text.split(separator: " ").map(String.init)
            case .array(let list)?: return list.compactMap(\.stringValue)
            default: continue
            }
        }
        return []
    }

    /// A claim as API Gateway passes it on: strings as they are, numbers as their text, lists as
    /// `[a b]`, other values as JSON.
    private static func claimText(_ value: JSONValue) -> JSONValue? {
        switch value {
        case .string: value
        case .number(let number):
            .string(number.rounded() == number && abs(number) < 1e15 ? String(Int64(number)) : String(number))
        case .bool(let flag): .string(flag ? "true" : "false")
        case .array(let list): .string("[" + list.map { $0.stringValue ?? $0.serialized }.joined(separator: " ") + "]")
        case .object: .string(value.serialized)
        case .null: nil
        }
    }
}
