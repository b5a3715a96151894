import AuthKit
import JOSE
import WebAuthn

/// Where passkeys are valid: the RP ID (`PASSKEY_RP_ID`, a deployment setting: the API's custom
/// domain; by default the API's own host, `localhost` locally) and, for each app, the origins its
/// ceremonies may come from.
public struct PasskeySettings: Sendable, Equatable {
    /// The RP ID: a passkey made for it works only on it and its subdomains.
    public let rpID: String
    /// The API's own origin (`ISSUER`'s), where the hosted page runs.
    public let apiOrigin: String

    public init(rpID: String, apiOrigin: String) {
        self.rpID = rpID
        self.apiOrigin = apiOrigin
    }

    /// The settings `environment` gives: `PASSKEY_RP_ID`, else the host of `ISSUER` (the API's
    /// own domain; `localhost` for a loopback address, as start-api's). An RP ID that is not a
    /// bare host name is `SettingsError.invalid`.
    public init(environment: [String: String]) throws {
        let issuer = try SessionSettings(environment: environment).issuer
        let given = environment["PASSKEY_RP_ID"] ?? ""
        let rpID = given.isEmpty ? Self.host(ofIssuer: issuer) : given
        guard Self.isHostName(rpID) else {
            throw SettingsError.invalid(
                "PASSKEY_RP_ID", "is a host name (the API's domain, e.g. auth.example.com), without scheme or port")
        }
        self.init(rpID: rpID, apiOrigin: BrowserPost.origin(of: issuer))
    }

    /// The host of `issuer` (`https://auth.example.com/…` → `auth.example.com`), lower-cased;
    /// `localhost` for a loopback address, which cannot be an RP ID.
    static func host(ofIssuer issuer: String) -> String {
        let origin = BrowserPost.origin(of: issuer)
        let authority = origin.split(separator: "/", omittingEmptySubsequences: true).dropFirst().first ?? ""
        let host: Substring
        if authority.hasPrefix("[") {
            host = authority.prefix { $0 != "]" } + "]"
        } else {
            host = authority.split(separator: ":").first ?? ""
        }
        let lowered = host.lowercased()
        let loopback = lowered == "localhost" || lowered == "[::1]" || lowered.hasPrefix("127.")
        return loopback ? "localhost" : lowered
    }

    /// The relying party for `app`'s ceremonies. Origins allowed: the app's web origin (its base
    /// URL), the API's own (the hosted page), `https://<rpID>`, the origin a native app's
    /// passkey has on iOS (`ASAuthorizationPlatformPublicKeyCredentialProvider`), and on Android
    /// `android:apk-key-hash:<base64url SHA-256>` of each signing certificate the app
    /// registered (`gatehouse apps … --android-app`), as Credential Manager sends it.
    public func party(for app: App) -> RelyingParty {
        var origins: Set<String> = [apiOrigin, "https://\(rpID)"]
        if let baseURL = app.baseURL { origins.insert(BrowserPost.origin(of: baseURL)) }
        for fingerprint in app.androidApps.flatMap(\.fingerprints) {
            if let hash = Self.bytes(ofFingerprint: fingerprint) {
                origins.insert("android:apk-key-hash:\(Base64URL.encode(hash))")
            }
        }
        return RelyingParty(id: rpID, origins: origins)
    }

    /// `AA:BB:…` as its 32 bytes; nil for anything else.
    static func bytes(ofFingerprint text: String) -> [UInt8]? {
        let bytes = text.split(separator: ":").compactMap { UInt8($0, radix: 16) }
        return bytes.count == 32 && text.split(separator: ":").count == 32 ? bytes : nil
    }

    /// Lower-case letters, digits, `-` and `.`, 1 to 253 characters, no empty label.
    static func isHostName(_ text: String) -> Bool {
        guard (1...253).contains(text.utf8.count) else { return false }
        let allowed = text.utf8.allSatisfy {
            (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) || $0 == UInt8(ascii: "-")
                || $0 == UInt8(ascii: ".")
        }
        return allowed && !text.split(separator: ".", omittingEmptySubsequences: false).contains { $0.isEmpty }
    }
}
