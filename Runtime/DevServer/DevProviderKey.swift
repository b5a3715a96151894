import AuthKit
import Foundation
import JOSE

/// The dev provider's signing key: its own RSA key, never Gatehouse's, in
/// `dev-provider-keys.json` beside the local store (created on first use, 0600), so that
/// `start-api` and `gatehouse dev apple-token` sign with the same key.
public enum DevProviderKey {
    public static let fileName = "dev-provider-keys.json"

    /// The key file's path for the store at `storePath`.
    public static func path(besideStore storePath: String) -> String {
        URL(fileURLWithPath: storePath).deletingLastPathComponent().appendingPathComponent(fileName).path
    }

    /// The key, created when the file does not exist yet.
    public static func loadOrCreate(besideStore storePath: String) throws -> RSASigningKey {
        try SigningKeyStore(location: .file(path: path(besideStore: storePath))).loadOrCreate().keys.current
    }
}
