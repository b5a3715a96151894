/// An app's publishable key: `gh_pk_` + 22 random base64url characters (16 bytes) + `_` + the
/// app's id, so a key names its app and is checked against the one stored with it.
public enum PublishableKey {
    static let prefix = "gh_pk_"
    static let randomLength = 22

    /// A new key for app `id`.
    public static func make(for id: String) -> String {
        prefix + RandomToken.urlSafe(byteCount: 16) + "_" + id
    }

    /// The app id a key names; nil for text that is not a key.
    public static func appID(in key: String) -> String? {
        guard key.hasPrefix(prefix) else { return nil }
        let rest = key.utf8.dropFirst(prefix.utf8.count)
        guard rest.count > randomLength + 1, rest.dropFirst(randomLength).first == UInt8(ascii: "_") else {
            return nil
        }
        return String(decoding: rest.dropFirst(randomLength + 1), as: UTF8.self)
    }
}
