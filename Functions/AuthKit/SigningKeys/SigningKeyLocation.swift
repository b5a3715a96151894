/// Where the issuer's signing keys live.
///
/// - `SIGNING_KEYS`: the private JWK Set itself, as JSON (read-only: rotate it where it comes from).
/// - `SIGNING_KEYS_FILE`: the path of a file holding that JSON.
///
/// `SIGNING_KEYS` wins when both are set. Local runs use `.gatehouse/signing-keys.json`, which
/// `gatehouse` creates on first use and hands to functions through `SIGNING_KEYS_FILE`.
public enum SigningKeyLocation: Sendable, Equatable {
    case inline(String)
    case file(path: String)

    /// The default key file of a project, relative to its root.
    public static let localFileName = ".gatehouse/signing-keys.json"

    /// Reads the location from the environment; nil when neither variable is set (or both are empty).
    public static func fromEnvironment(_ environment: [String: String]) -> SigningKeyLocation? {
        if let json = environment["SIGNING_KEYS"], !json.isEmpty { return .inline(json) }
        if let path = environment["SIGNING_KEYS_FILE"], !path.isEmpty { return .file(path: path) }
        return nil
    }
}
