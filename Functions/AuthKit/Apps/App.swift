import GatehouseJSON
import JOSE
import StoreCore

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// An app that signs its users in with Gatehouse: where to send them back, and the public
/// keys its backend signs server-to-server assertions with.
public struct App: Sendable, Equatable {
    /// Lower-case letters, digits, `-` and `_`; at most 64 characters. Access tokens carry it as `aud`.
    public let id: String
    public var name: String
    /// The web app's origin, e.g. `https://example.com`; sign-in returns to `{baseURL}/app/auth/callback`.
    public var baseURL: String?
    /// The mobile app's URL scheme; sign-in returns to `{scheme}://auth/callback`.
    public var mobileScheme: String?
    /// Public keys (RSA ≥ 2048 bits, or P-256) for the app's S2S assertions.
    public var publicKeys: [JWK]
    /// Where its auth codes may be redeemed: an app that signs in only through its backend
    /// leaves out `public`, so a code intercepted on its way back cannot be exchanged for tokens.
    public var redeem: Set<CodeRedemption>
    /// The key its clients send as `apikey` (Supabase's protocol) to name it: public, as a
    /// Supabase publishable key is, and made by `AppRegistry.add`. Nil for an app stored before
    /// keys existed, until it is given one.
    public var publishableKey: String?
    /// Whether its native Sign in with Apple may go without a nonce (`AppleIdentityVerifier`):
    /// false unless the app opts out, for a client that cannot send one. Without the nonce, an
    /// identity token made for another purpose could be replayed here before it expires.
    public var appleNonceOptional = false
    /// Its iOS apps, `TEAMID.bundle.id` each (`AppleAppID`): `apple-app-site-association` lists
    /// them, so they may use this domain's passkeys.
    public private(set) var appleAppIDs: [String] = []
    /// Its Android apps (`AndroidApp`): `assetlinks.json` lists them, for the same.
    public private(set) var androidApps: [AndroidApp] = []

    /// Schemes no app owns: what browsers fetch, run or open themselves. As a mobile scheme, any
    /// of them would make every address in it the app's (`AppRedirect`), and a session could be
    /// sent to any web site.
    static let webSchemes: Set<String> = [
        "http", "https", "ws", "wss", "ftp", "file", "javascript", "data", "blob", "about", "mailto", "tel", "sms",
        "intent",
    ]

    /// Whether `id` can be an app's id: 1 to 64 lower-case letters, digits, `-` or `_`.
    public static func isValidID(_ id: String) -> Bool {
        !id.isEmpty && id.utf8.count <= 64
            && id.unicodeScalars.allSatisfy {
                ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" || $0 == "_"
            }
    }

    /// Checks every field; `AppError.invalid` names the first that is wrong.
    public init(
        id: String, name: String, baseURL: String?, mobileScheme: String?, publicKeys: [JWK],
        redeem: Set<CodeRedemption> = [.public, .backend], appleAppIDs: [String] = [], androidApps: [AndroidApp] = []
    ) throws(AppError) {
        guard Self.isValidID(id) else { throw .invalid("id", "use 1 to 64 lower-case letters, digits, - or _") }
        guard name.contains(where: { !$0.isWhitespace }), name.utf8.count <= 200 else {
            throw .invalid("name", "must be 1 to 200 characters")
        }
        if let baseURL {
            guard let url = URL(string: baseURL), ["http", "https"].contains(url.scheme ?? ""), url.host != nil,
                !baseURL.hasSuffix("/")
            else { throw .invalid("base-url", "must be an http(s) origin without a trailing slash") }
        }
        if let mobileScheme {
            let scalars = Array(mobileScheme.unicodeScalars)
            guard let first = scalars.first, ("a"..."z").contains(first),
                scalars.allSatisfy({
                    ("a"..."z").contains($0) || ("0"..."9").contains($0) || "+-.".unicodeScalars.contains($0)
                })
            else { throw .invalid("mobile-scheme", "must be a lower-case URL scheme such as com.example.app") }
            guard !Self.webSchemes.contains(mobileScheme) else {
                throw .invalid(
                    "mobile-scheme", "must be the app's own scheme, not \(mobileScheme), which a browser handles")
            }
        }
        for key in publicKeys {
            do {
                let checked = try VerificationKey(jwk: key)
                guard checked.algorithm != .edDSA else { throw JOSEError.unsupportedKey("S2S keys are RSA or P-256") }
            } catch {
                throw .invalid("public-key", "\(error)")
            }
        }
        self.id = id
        self.name = name
        self.baseURL = baseURL
        self.mobileScheme = mobileScheme
        guard !redeem.isEmpty else { throw .invalid("redeem", "name public, backend or both") }
        self.publicKeys = publicKeys
        self.redeem = redeem
        try associate(appleAppIDs: appleAppIDs, androidApps: androidApps)
    }

    /// Sets the native apps that may use this domain's passkeys, each list checked
    /// (`AppleAppID.checked`, `AndroidApp.checked`); on an error nothing changes.
    public mutating func associate(appleAppIDs: [String], androidApps: [AndroidApp]) throws(AppError) {
        let apple = try AppleAppID.checked(appleAppIDs)
        let android = try AndroidApp.checked(androidApps)
        self.appleAppIDs = apple
        self.androidApps = android
    }

    /// The stored `redeem` list; both ways when absent, none (so the app is invalid) when
    /// it names anything unknown.
    private static func redemption(_ value: JSONValue?) -> Set<CodeRedemption> {
        guard let value else { return [.public, .backend] }
        guard case .array(let names) = value else { return [] }
        var routes = Set<CodeRedemption>()
        for name in names {
            guard let route = name.stringValue.flatMap(CodeRedemption.init(rawValue:)) else { return [] }
            routes.insert(route)
        }
        return routes
    }

    /// A stored list of strings; empty when absent, nil when it is anything else.
    private static func strings(_ value: JSONValue?) -> [String]? {
        guard let value else { return [] }
        guard let array = value.arrayValue else { return nil }
        let strings = array.compactMap(\.stringValue)
        return strings.count == array.count ? strings : nil
    }

    /// The stored Android apps; none when absent, nil when any is unreadable.
    private static func androidApps(_ value: JSONValue?) -> [AndroidApp]? {
        guard let value else { return [] }
        guard let array = value.arrayValue else { return nil }
        let apps = array.compactMap(AndroidApp.init(value:))
        return apps.count == array.count ? apps : nil
    }

    public var webCallbackURL: String? { baseURL.map { "\($0)/app/auth/callback" } }
    public var mobileCallbackURL: String? { mobileScheme.map { "\($0)://auth/callback" } }

    /// The stored item (and what `gatehouse apps list` prints).
    public var item: Item {
        var item: Item = [
            "id": .string(id), "name": .string(name),
            "publicKeys": .array(publicKeys.compactMap { try? JSONValue(parsing: Array(JSONEncoder().encode($0))) }),
            "redeem": .array(redeem.sorted().map { .string($0.rawValue) }),
        ]
        if let baseURL { item["baseUrl"] = .string(baseURL) }
        if let mobileScheme { item["mobileScheme"] = .string(mobileScheme) }
        if let publishableKey { item["publishableKey"] = .string(publishableKey) }
        if appleNonceOptional { item["appleNonceOptional"] = true }
        if !appleAppIDs.isEmpty { item["appleAppIds"] = .array(appleAppIDs.map { .string($0) }) }
        if !androidApps.isEmpty { item["androidApps"] = .array(androidApps.map(\.value)) }
        return item
    }

    /// Reads a stored item; nil when it is not a valid app. An item from before `redeem` existed
    /// redeems both ways, as every app then did; one from before native apps were listed lists none.
    public init?(item: Item) {
        guard case .string(let id)? = item["id"], case .string(let name)? = item["name"] else { return nil }
        let keys = (item["publicKeys"]?.arrayValue ?? []).compactMap { value in
            value.objectValue.flatMap { try? JWK(object: $0) }
        }
        guard
            let app = try? App(
                id: id, name: name, baseURL: item["baseUrl"]?.stringValue,
                mobileScheme: item["mobileScheme"]?.stringValue,
                publicKeys: keys, redeem: Self.redemption(item["redeem"]))
        else { return nil }
        self = app
        guard let apple = Self.strings(item["appleAppIds"]), let android = Self.androidApps(item["androidApps"]),
            (try? self.associate(appleAppIDs: apple, androidApps: android)) != nil
        else { return nil }
        publishableKey = item["publishableKey"]?.stringValue.flatMap { PublishableKey.appID(in: $0) == id ? $0 : nil }
        appleNonceOptional = item["appleNonceOptional"] == true
    }
}
