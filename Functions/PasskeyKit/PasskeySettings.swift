import AuthKit
import WebAuthn

/// Where passkeys are valid: the RP ID (`PASSKEY_RP_ID`, a deployment setting: the API's custom
/// domain, `localhost` locally) and, for each app, the origins its ceremonies may come from.
public struct PasskeySettings: Sendable, Equatable {
    /// The RP ID: a passkey made for it works only on it and its subdomains.
    public let rpID: String
    /// The API's own origin (`ISSUER`'s), where the hosted page runs.
    public let apiOrigin: String

    public init(rpID: String, apiOrigin: String) {
        self.rpID = rpID
        self.apiOrigin = apiOrigin
    }

    /// The settings `environment` gives: `PASSKEY_RP_ID` (default `localhost`) and `ISSUER`.
    /// An RP ID that is not a bare host name is `SettingsError.invalid`.
    public init(environment: [String: String]) throws {
        let rpID = (environment["PASSKEY_RP_ID"] ?? "").isEmpty ? "localhost" : environment["PASSKEY_RP_ID"]!
        guard Self.isHostName(rpID) else {
            throw SettingsError.invalid(
                "PASSKEY_RP_ID", "is a host name (the API's domain, e.g. auth.example.com), without scheme or port")
        }
        let issuer = try SessionSettings(environment: environment).issuer
        self.init(rpID: rpID, apiOrigin: BrowserPost.origin(of: issuer))
    }

    /// The relying party for `app`'s ceremonies. Origins allowed: the app's web origin (its base
    /// URL), the API's own (the hosted page), and `https://<rpID>`, the origin a native app's
    /// passkey has (iOS' `ASAuthorizationPlatformPublicKeyCredentialProvider`).
    public func party(for app: App) -> RelyingParty {
        var origins: Set<String> = [apiOrigin, "https://\(rpID)"]
        if let baseURL = app.baseURL { origins.insert(BrowserPost.origin(of: baseURL)) }
        return RelyingParty(id: rpID, origins: origins)
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
