import GatehouseJSON
import StoreCore

/// Provider identity tokens already used to sign in (Sign in with Apple's), each kept as the
/// SHA-256 of its signed part in `UsedAssertions` (the S2S assertions' table of short-lived
/// items, whose keys always hold a `/`, so the two never meet) until the token expires.
struct UsedIdentityTokens: Sendable {
    static let table = S2SVerifier.table
    /// The verifier's clock skew: a token is accepted up to this long after its `exp`.
    static let skew: Double = 60

    let store: any KeyValueStore

    /// Records the use of `token`, which expires at `expiresAt` (s): by a conditional write, so
    /// that of racing uses of one token exactly one succeeds. `tokenRefused("token_used")` for
    /// every other, and for any later use while the token is valid.
    func spend(_ token: String, expiresAt: Double) async throws {
        let item: Item = [
            "jti": .string("apple#\(Self.hash(token))"), "ttl": .number((expiresAt + Self.skew).rounded(.up)),
        ]
        do {
            try await store.put(Self.table, item: item, condition: .itemNotExists)
        } catch StoreError.conditionFailed {
            throw SignInError.tokenRefused("token_used")
        }
    }

    /// SHA-256 (hex) of the token's signed part, its header and payload: the signature's
    /// encoding cannot make one token two.
    static func hash(_ token: String) -> String {
        let signed = token.lastIndex(of: ".").map { token[..<$0] } ?? token[...]
        return SHA256Hex.of(Array(signed.utf8))
    }
}
