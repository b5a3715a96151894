import Crypto
import JOSE

/// Proof Key for Code Exchange (RFC 7636), `S256` only: a client that starts a sign-in sends
/// `challenge = base64url(SHA-256(verifier))` and later proves it started it by sending the
/// verifier, which never travelled through a redirect.
public enum PKCE {
    /// The S256 challenge of `verifier`.
    public static func challenge(for verifier: String) -> String {
        Base64URL.encode(Array(SHA256.hash(data: Array(verifier.utf8))))
    }

    /// A challenge as S256 makes them: 43 base64url characters.
    public static func isValidChallenge(_ text: String) -> Bool {
        text.utf8.count == 43 && text.utf8.allSatisfy(isBase64URL)
    }

    /// A verifier as RFC 7636 allows: 43 to 128 characters of `A-Z a-z 0-9 - . _ ~`.
    public static func isValidVerifier(_ text: String) -> Bool {
        (43...128).contains(text.utf8.count)
            && text.utf8.allSatisfy { isBase64URL($0) || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "~") }
    }

    /// `text` as a request's optional `codeChallenge`: nil when absent, else a valid S256
    /// challenge or a 400 that names the field.
    public static func challenge(from text: String?) throws(SignInError) -> String? {
        guard let text else { return nil }
        guard isValidChallenge(text) else {
            throw .invalidField("codeChallenge", "must be an S256 challenge: 43 base64url characters")
        }
        return text
    }

    /// The S256 challenge a flow keeps for a client's `challenge` and `method` (RFC 7636's
    /// `code_challenge` and `code_challenge_method`): nil when both are absent. `s256` (any
    /// case) takes a 43-character S256 challenge as it is; `plain` takes a verifier-shaped
    /// challenge and keeps its S256, since a plain verifier is its challenge, so that every
    /// flow is checked by `verifies` alone and never keeps a plain secret.
    /// `FlowError.invalidChallenge` for one without the other, another method, or a malformed
    /// challenge.
    public static func flowChallenge(_ challenge: String?, method: String?) throws(FlowError) -> String? {
        switch (challenge.flatMap { $0.isEmpty ? nil : $0 }, method.flatMap { $0.isEmpty ? nil : $0 }) {
        case (nil, nil): return nil
        case (let challenge?, let method?) where method.lowercased() == "s256":
            guard isValidChallenge(challenge) else {
                throw .invalidChallenge("code_challenge must be an S256 challenge: 43 base64url characters")
            }
            return challenge
        case (let challenge?, let method?) where method.lowercased() == "plain":
            guard isValidVerifier(challenge) else {
                throw .invalidChallenge("code challenge has to be 43 to 128 characters of A-Z a-z 0-9 - . _ ~")
            }
            return self.challenge(for: challenge)
        case (_?, _?): throw .invalidChallenge("code_challenge_method must be s256 or plain")
        default: throw .invalidChallenge("PKCE flow requires code_challenge_method and code_challenge")
        }
    }

    /// Whether `verifier` is the one `challenge` was made from; the comparison takes the same
    /// time wherever the two differ.
    public static func verifies(_ verifier: String, challenge: String) -> Bool {
        isValidVerifier(verifier) && ConstantTime.equal(self.challenge(for: verifier), challenge)
    }

    private static func isBase64URL(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"):
            true
        default: false
        }
    }
}
