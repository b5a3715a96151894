/// Why a refresh token was refused (401 either way; the codes tell clients apart).
public enum RefreshError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Unknown, expired, or its session has ended.
    case invalidRefreshToken
    /// A rotated-out token came back after its grace: the session has been ended.
    case refreshTokenReused

    public var status: Int { 401 }

    public var code: String {
        switch self {
        case .invalidRefreshToken: "invalid_refresh_token"
        case .refreshTokenReused: "refresh_token_reused"
        }
    }

    public var description: String {
        switch self {
        case .invalidRefreshToken: "The refresh token is invalid, expired or revoked."
        case .refreshTokenReused: "The refresh token was already used; the session has been ended."
        }
    }
}

extension RefreshError: ClientError {}
