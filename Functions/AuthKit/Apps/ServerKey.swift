import GatehouseJSON
import StoreCore

/// An app's server key (Supabase's service-role or secret key): `gh_sk_` + 43 base64url
/// characters (32 random bytes). Only its SHA-256 is stored, as the `Apps` item
/// `serverKey#<hash>` (one get finds it: nothing scans), beside the app's list of its keys
/// (`serverKeys#<app>`, what `gatehouse apps key list` shows, without any secret).
public struct ServerKey: Sendable, Equatable {
    static let prefix = "gh_sk_"
    static let itemPrefix = "serverKey#"
    static let listPrefix = "serverKeys#"

    /// Its id: 12 hex digits, not secret, what a log line, a revocation and an admin action name.
    public let id: String
    /// The app it belongs to: it manages that app's users (every user of the deployment: see
    /// `UserAdmin`).
    public let app: String
    /// SHA-256 of the secret, hex.
    let hash: String
    /// When it was made (ms since 1970).
    public let createdAt: Double

    /// A new secret: what `ServerKeys.create` shows once.
    static func makeSecret() -> String {
        prefix + RandomToken.urlSafe(byteCount: 32)
    }

    /// Whether `text` has a server key's shape (so a publishable key is told apart by name).
    public static func isShaped(_ text: String) -> Bool {
        text.hasPrefix(prefix) && text.utf8.count == prefix.utf8.count + 43
    }

    /// The stored hash of `secret`.
    static func hash(of secret: String) -> String {
        SHA256Hex.of(Array(secret.utf8))
    }

    /// The `Apps` item of the key whose hash is `hash`.
    static func itemKey(hash: String) -> ItemKey {
        ItemKey(.string(itemPrefix + hash))
    }

    /// The `Apps` item that lists `app`'s keys.
    static func listKey(app: String) -> ItemKey {
        ItemKey(.string(listPrefix + app))
    }

    /// The key's own item.
    var item: Item {
        [
            "id": .string(Self.itemPrefix + hash), "keyId": .string(id), "app": .string(app),
            "createdAt": .number(createdAt),
        ]
    }

    /// Its entry in the app's list.
    var entry: JSONValue {
        ["keyId": .string(id), "hash": .string(hash), "createdAt": .number(createdAt)]
    }

    init(id: String, app: String, hash: String, createdAt: Double) {
        self.id = id
        self.app = app
        self.hash = hash
        self.createdAt = createdAt
    }

    /// Reads a key's item; nil when it is not one.
    init?(item: Item) {
        guard case .string(let itemID)? = item["id"], itemID.hasPrefix(Self.itemPrefix),
            case .string(let id)? = item["keyId"], case .string(let app)? = item["app"],
            case .number(let createdAt)? = item["createdAt"]
        else { return nil }
        self.init(id: id, app: app, hash: String(itemID.dropFirst(Self.itemPrefix.count)), createdAt: createdAt)
    }

    /// Reads an entry of an app's list; nil when it is not one.
    init?(entry: JSONValue, app: String) {
        guard case .string(let id)? = entry["keyId"], case .string(let hash)? = entry["hash"],
            case .number(let createdAt)? = entry["createdAt"]
        else { return nil }
        self.init(id: id, app: app, hash: hash, createdAt: createdAt)
    }
}
