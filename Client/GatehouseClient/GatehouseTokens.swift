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
    public var refreshTokenExpiresAt: Date
    public var user: GatehouseUser

    public init(
        accessToken: String, accessTokenExpiresAt: Date, refreshToken: String, refreshTokenExpiresAt: Date,
        user: GatehouseUser
    ) {
        self.accessToken = accessToken
        self.accessTokenExpiresAt = accessTokenExpiresAt
        self.refreshToken = refreshToken
        self.refreshTokenExpiresAt = refreshTokenExpiresAt
        self.user = user
    }
}

/// The signed-in user, as `/auth/exchange` and `/auth/refresh` describe them.
public struct GatehouseUser: Codable, Sendable, Equatable {
    public var id: String
    public var email: String?
    public var name: String?
    /// How they signed in: `email`, `phone`, `apple`, `google`, …
    public var provider: String
    /// Whether the sign-in made the account.
    public var isNewUser: Bool

    public init(id: String, email: String?, name: String?, provider: String, isNewUser: Bool) {
        self.id = id
        self.email = email
        self.name = name
        self.provider = provider
        self.isNewUser = isNewUser
    }
}

/// The session answer of `/auth/exchange` and `/auth/refresh` (times in milliseconds).
struct SessionAnswer: Decodable {
    let accessToken: String
    let accessTokenExpiresAt: Double
    let refreshToken: String
    let refreshTokenExpiresAt: Double
    let user: GatehouseUser

    var tokens: GatehouseTokens {
        GatehouseTokens(
            accessToken: accessToken, accessTokenExpiresAt: Date(timeIntervalSince1970: accessTokenExpiresAt / 1000),
            refreshToken: refreshToken,
            refreshTokenExpiresAt: Date(timeIntervalSince1970: refreshTokenExpiresAt / 1000),
            user: user)
    }
}
