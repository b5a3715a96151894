import AuthKit
import Foundation
import JOSE

/// The dev provider's signing key: its own RSA key, never Gatehouse's, in
/// `dev-provider-keys.json` beside the local store (created on first use, 0600), so that
/// `start-api` and `gatehouse dev apple-token` sign with the same key.
public enum DevProviderKey {
    public static let fileName = "dev-provider-keys.json"

    /// The key, in `directory` (the local store's folder), created when the file does not
    /// exist yet.
    public static func loadOrCreate(in directory: String) throws -> RSASigningKey {
        let path = URL(fileURLWithPath: directory).appendingPathComponent(fileName).path
        return try SigningKeyStore(location: .file(path: path)).loadOrCreate().keys.current
    }
}
