import AuthKit
import GatehouseJSON
import JOSE

/// An identity token shaped like Sign in with Apple's, signed by the dev provider's key, for
/// trying `POST /auth/verify-apple` locally (the local template takes Apple's keys from the
/// dev provider's JWKS). Production checks Apple's own keys, which never signed it.
public struct AppleDevToken: Sendable {
    /// Apple's `iss`.
    public static let issuer = "https://appleid.apple.com"

    public var subject: String
    public var email: String?
    /// The app's bundle id or services id.
    public var audience: String
    /// The nonce the app made: the token carries its SHA-256 in hex, as Apple's does when the
    /// app puts the hash in its request.
    public var nonce: String?
    public var expiresIn: Double

    public init(subject: String, email: String?, audience: String, nonce: String?, expiresIn: Double) {
        self.subject = subject
        self.email = email
        self.audience = audience
        self.nonce = nonce
        self.expiresIn = expiresIn
    }

    /// The claims as Apple sends them, `email_verified` and `is_private_email` as strings.
    public func claims(now: Double) -> [String: JSONValue] {
        let issued = now.rounded(.down)
        var claims: [String: JSONValue] = [
            "iss": .string(Self.issuer), "aud": .string(audience), "sub": .string(subject),
            "iat": .number(issued), "exp": .number(issued + expiresIn), "auth_time": .number(issued),
            "nonce_supported": true,
        ]
        if let email {
            claims["email"] = .string(email)
            claims["email_verified"] = "true"
            claims["is_private_email"] = email.hasSuffix("@privaterelay.appleid.com") ? "true" : "false"
        }
        if let nonce {
            claims["nonce"] = .string(SHA256Hex.of(nonce.utf8))
        }
        return claims
    }

    /// The token, signed with `key`.
    public func signed(with key: RSASigningKey, now: Double) throws -> String {
        try JWS.signJWT(claims: claims(now: now), with: key)
    }

}
