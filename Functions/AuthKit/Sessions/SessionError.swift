/// Why a sign-in step was refused, with the HTTP status and the `snake_case` code the
/// functions answer with (`{"error": code, "message": description}`).
public enum SessionError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The code is unknown, used or expired (401): the three look alike on purpose.
    case invalidCode
    /// The code was made for another app (403); it is spent.
    case wrongApp
    /// The app's codes are not redeemed on this route (`App.redeem`) (403).
    case notRedeemableHere
    /// An email address that cannot be one (400).
    case invalidEmail
    /// The user a record points at does not exist (any more).
    case userNotFound
    /// The user is banned (`User.bannedUntil`) until the ban lapses or is lifted (403).
    case banned

    /// The HTTP status this error answers with.
    public var status: Int {
        switch self {
        case .invalidCode: 401
        case .wrongApp, .notRedeemableHere, .banned: 403
        case .invalidEmail: 400
        case .userNotFound: 404
        }
    }

    /// The stable code clients match on.
    public var code: String {
        switch self {
        case .invalidCode: "invalid_code"
        case .wrongApp: "wrong_app"
        case .notRedeemableHere: "redeem_not_allowed"
        case .invalidEmail: "invalid_email"
        case .userNotFound: "user_not_found"
        case .banned: "banned"
        }
    }

    public var description: String {
        switch self {
        case .invalidCode: "The code is invalid, already used or expired."
        case .wrongApp: "The code was issued to another app; it has been spent."
        case .notRedeemableHere: "The app's codes are not redeemed on this route; see its redeem setting."
        case .invalidEmail: "The email address is not valid."
        case .userNotFound: "The user does not exist."
        case .banned: "The user is banned."
        }
    }
}

extension SessionError: ClientError {}
