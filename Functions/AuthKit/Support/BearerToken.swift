/// The one parser of `Authorization: Bearer <token>` (RFC 6750 §2.1) for every caller: the
/// access-token authorizer and the S2S assertion verifier.
public enum BearerToken {
    /// The token of `Bearer <token>`: the scheme case-insensitive (RFC 9110 §11.1), spaces
    /// before the token skipped; nil for any other scheme, no header, or an empty token.
    public static func parse(_ header: String?) -> Substring? {
        guard let header else { return nil }
        let parts = header.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        let token = parts[1].drop(while: { $0 == " " })
        return token.isEmpty ? nil : token
    }
}
