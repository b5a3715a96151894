import Foundation

/// A session a sign-in answered with, read from the answer's JSON, whichever route gave it:
///
/// - Gatehouse's own (`/auth/exchange`, `/auth/refresh`, `/auth/verify-apple`):
///   `{accessToken, accessTokenExpiresAt, refreshToken, refreshTokenExpiresAt, user}`, times in
///   milliseconds since 1970;
/// - the phone sign-in's (`/auth/otp/verify`): `{isNewUser, user: {id, phoneNumber, name},
///   tokens: {accessToken, refreshToken, expiresIn}}`, the access token's lifetime in seconds
///   and, when the answer carries them, `accessTokenExpiresAt` / `refreshTokenExpiresAt`;
/// - Supabase's (`/auth/v1/token`, `/auth/v1/verify`): `{access_token, expires_at, expires_in,
///   refresh_token, user}`.
///
/// An app that calls a sign-in route itself hands the answer's bytes to
/// `GatehouseClient.signIn(with:)`; the client's own sign-in methods do the same.
public struct GatehouseSession: Sendable, Equatable {
    /// When a token ends: at a time the answer gave, or a number of seconds after it arrived.
    enum Expiry: Sendable, Equatable {
        case at(Date)
        case after(TimeInterval)

        func date(from now: Date) -> Date {
            switch self {
            case .at(let date): date
            case .after(let seconds): now.addingTimeInterval(seconds)
            }
        }
    }

    public var accessToken: String
    public var refreshToken: String
    public var user: GatehouseUser
    var accessTokenExpiry: Expiry
    /// Nil when the answer does not say (the phone and Supabase answers do not).
    var refreshTokenExpiry: Expiry?

    /// The session in a sign-in's answer; `malformedAnswer` for JSON that is none of the shapes.
    public init(answer: Data) throws(GatehouseClientError) {
        guard let shape = try? JSONDecoder().decode(SessionShape.self, from: answer),
            let session = shape.session
        else { throw GatehouseClientError.malformedAnswer(status: 200) }
        self = session
    }

    init(
        accessToken: String, refreshToken: String, user: GatehouseUser, accessTokenExpiry: Expiry,
        refreshTokenExpiry: Expiry?
    ) {
        self.accessToken = accessToken
        self.refreshToken = refreshToken
        self.user = user
        self.accessTokenExpiry = accessTokenExpiry
        self.refreshTokenExpiry = refreshTokenExpiry
    }

    /// The tokens to keep, with the expiries made absolute from `now` (when the answer arrived).
    func tokens(now: Date) -> GatehouseTokens {
        GatehouseTokens(
            accessToken: accessToken, accessTokenExpiresAt: accessTokenExpiry.date(from: now),
            refreshToken: refreshToken, refreshTokenExpiresAt: refreshTokenExpiry?.date(from: now), user: user)
    }
}
