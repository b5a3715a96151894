import Foundation

/// Every member any of the session answers has (see `GatehouseSession`), all optional: the
/// answer's shape is told by which are there.
struct SessionShape: Decodable {
    struct Tokens: Decodable {
        let accessToken: String
        let refreshToken: String
        let expiresIn: Double?
        let accessTokenExpiresAt: Double?
        let refreshTokenExpiresAt: Double?
    }

    struct Metadata: Decodable {
        let provider: String?
    }

    struct User: Decodable {
        let id: String
        let email: String?
        let name: String?
        let provider: String?
        let isNewUser: Bool?
        let phoneNumber: String?
        let phone: String?
        let appMetadata: Metadata?

        enum CodingKeys: String, CodingKey {
            case id, email, name, provider, isNewUser, phoneNumber, phone
            case appMetadata = "app_metadata"
        }
    }

    let accessToken: String?
    let accessTokenExpiresAt: Double?
    let refreshToken: String?
    let refreshTokenExpiresAt: Double?
    let isNewUser: Bool?
    let tokens: Tokens?
    let user: User?
    let supabaseAccessToken: String?
    let supabaseRefreshToken: String?
    let expiresAt: Double?
    let expiresIn: Double?

    enum CodingKeys: String, CodingKey {
        case accessToken, accessTokenExpiresAt, refreshToken, refreshTokenExpiresAt, isNewUser, tokens, user
        case supabaseAccessToken = "access_token"
        case supabaseRefreshToken = "refresh_token"
        case expiresAt = "expires_at"
        case expiresIn = "expires_in"
    }

    /// The session, when the members of one of the shapes are there.
    var session: GatehouseSession? {
        guard let user else { return nil }
        if let accessToken, let accessTokenExpiresAt, let refreshToken {
            return GatehouseSession(
                accessToken: accessToken, refreshToken: refreshToken,
                user: gatehouseUser(user, provider: user.provider ?? "email"),
                accessTokenExpiry: .at(Self.date(milliseconds: accessTokenExpiresAt)),
                refreshTokenExpiry: refreshTokenExpiresAt.map { .at(Self.date(milliseconds: $0)) })
        }
        if let tokens, let access = Self.expiry(milliseconds: tokens.accessTokenExpiresAt, seconds: tokens.expiresIn) {
            return GatehouseSession(
                accessToken: tokens.accessToken, refreshToken: tokens.refreshToken,
                user: gatehouseUser(user, provider: "phone"), accessTokenExpiry: access,
                refreshTokenExpiry: tokens.refreshTokenExpiresAt.map { .at(Self.date(milliseconds: $0)) })
        }
        if let supabaseAccessToken, let supabaseRefreshToken {
            let access: GatehouseSession.Expiry? =
                expiresAt.map { .at(Date(timeIntervalSince1970: $0)) } ?? expiresIn.map { .after($0) }
            guard let access else { return nil }
            return GatehouseSession(
                accessToken: supabaseAccessToken, refreshToken: supabaseRefreshToken,
                user: gatehouseUser(user, provider: user.appMetadata?.provider ?? "email"), accessTokenExpiry: access,
                refreshTokenExpiry: nil)
        }
        return nil
    }

    private func gatehouseUser(_ user: User, provider: String) -> GatehouseUser {
        GatehouseUser(
            id: user.id, email: user.email.flatMap { $0.isEmpty ? nil : $0 }, name: user.name, provider: provider,
            isNewUser: user.isNewUser ?? isNewUser ?? false,
            phoneNumber: (user.phoneNumber ?? user.phone).flatMap { $0.isEmpty ? nil : $0 })
    }

    private static func expiry(milliseconds: Double?, seconds: Double?) -> GatehouseSession.Expiry? {
        if let milliseconds { return .at(date(milliseconds: milliseconds)) }
        return seconds.map { .after($0) }
    }

    private static func date(milliseconds: Double) -> Date {
        Date(timeIntervalSince1970: milliseconds / 1000)
    }
}
