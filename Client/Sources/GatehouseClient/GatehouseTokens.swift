#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What a signed-in client keeps: Gatehouse's tokens, when they expire, and who signed in.
public struct GatehouseTokens: Codable, Sendable, Equatable {
    public var accessToken: String
    public var accessTokenExpiresAt: Date
    public var refreshToken: String
    /// When the refresh token ends, so the session with it: nil while no answer has said (a
    /// phone or Supabase sign-in's; the first refresh tells).
    public var refreshTokenExpiresAt: Date?
    public var user: GatehouseUser

    public init(
        accessToken: String, accessTokenExpiresAt: Date, refreshToken: String, refreshTokenExpiresAt: Date?,
        user: GatehouseUser
    ) {
        self.accessToken = accessToken
        self.accessTokenExpiresAt = accessTokenExpiresAt
        self.refreshToken = refreshToken
        self.refreshTokenExpiresAt = refreshTokenExpiresAt
        self.user = user
    }
}
