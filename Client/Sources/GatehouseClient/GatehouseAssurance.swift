import Foundation

/// How strongly the session is signed in, and how strongly it could be
/// (`GatehouseClient.assuranceLevel(apiKey:)`, as Supabase's `getAuthenticatorAssuranceLevel`):
/// `current` `aal1` with `next` `aal2` means the user has a verified second factor this session
/// has not proved yet, so the app asks for its code (`challengeAndVerifyFactor`).
public struct GatehouseAssurance: Sendable, Equatable {
    /// An authenticator assurance level.
    public enum Level: String, Sendable, Equatable {
        /// One factor (a link, a code, a password, a provider).
        case aal1
        /// A verified second factor too.
        case aal2
    }

    /// The session's level: its access token's `aal`.
    public var current: Level
    /// The level the session can reach: `aal2` when the user has a verified factor.
    public var next: Level
    /// The ways the session was proved, most recent first (the access token's `amr` methods:
    /// `otp`, `password`, `oauth`, `totp`, …).
    public var methods: [String]

    /// Whether the app should ask for the second factor's code now.
    public var canStepUp: Bool { current == .aal1 && next == .aal2 }
}
