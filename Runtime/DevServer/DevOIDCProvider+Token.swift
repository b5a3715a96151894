import AuthKit
import Emulator
import Foundation
import GatehouseJSON
import JOSE

extension DevOIDCProvider {
    /// `/oauth2/token`: an `authorization_code` grant from the client (its secret by HTTP Basic
    /// or in the form), for a code issued to it, with the redirect URI it was issued for and the
    /// verifier of its challenge. Answers with an id token and an access token, as Cognito does.
    func token(_ request: DevRequest) -> APIResponse {
        let form = request.form
        guard authenticatesClient(form: form, authorization: request.header("authorization")) else {
            return DevPage.json(401, ["error": "invalid_client"])
        }
        guard form["grant_type"] == "authorization_code" else {
            return DevPage.json(400, ["error": "unsupported_grant_type"])
        }
        guard let code = form["code"], let grant = redeem(code), grant.clientID == Self.clientID,
            form["redirect_uri"] == grant.redirectURI, let verifier = form["code_verifier"],
            PKCE.verifies(verifier, challenge: grant.challenge)
        else { return DevPage.json(400, ["error": "invalid_grant"]) }
        do {
            return DevPage.json(200, try tokens(for: grant))
        } catch {
            return DevPage.json(500, ["error": "server_error"])
        }
    }

    /// The id and access tokens for a redeemed grant.
    private func tokens(for grant: DevProviderGrant) throws -> [String: JSONValue] {
        let issued = now().rounded(.down)
        let common: [String: JSONValue] = [
            "iss": .string(issuer), "sub": .string(grant.person.subject), "iat": .number(issued),
            "exp": .number(issued + Self.tokenSeconds), "auth_time": .number(issued),
        ]
        var id = common.merging(grant.person.claims) { $1 }
        id["aud"] = .string(Self.clientID)
        id["token_use"] = "id"
        if let nonce = grant.nonce { id["nonce"] = .string(nonce) }
        var access = common
        access["client_id"] = .string(Self.clientID)
        access["token_use"] = "access"
        access["scope"] = "openid email profile"
        access["username"] = grant.person.claims["cognito:username"]
        return [
            "id_token": .string(try JWS.signJWT(claims: id, with: key)),
            "access_token": .string(try JWS.signJWT(claims: access, with: key)),
            "token_type": "Bearer", "expires_in": .number(Self.tokenSeconds),
        ]
    }

    /// Whether the request names Gatehouse's client and its secret: by HTTP Basic (RFC 6749
    /// §2.3.1, both parts form-encoded) or as `client_id` and `client_secret` in the form.
    private func authenticatesClient(form: [String: String], authorization: String?) -> Bool {
        var id = form["client_id"]
        var secret = form["client_secret"]
        if let authorization, authorization.lowercased().hasPrefix("basic ") {
            guard
                let decoded = Data(base64Encoded: String(authorization.dropFirst(6))).flatMap({
                    String(data: $0, encoding: .utf8)
                }), let colon = decoded.firstIndex(of: ":")
            else { return false }
            id = String(decoded[..<colon]).removingPercentEncoding
            secret = String(decoded[decoded.index(after: colon)...]).removingPercentEncoding
        }
        guard id == Self.clientID else { return false }
        return ConstantTime.equal(secret ?? "", clientSecret)
    }
}
