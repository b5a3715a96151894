/// Whether what an event records succeeded, and if not, why, by a fixed code.
public enum AuditOutcome: Sendable, Equatable {
    case success
    case failure(AuditFailureReason)

    /// `success` or `failure`, as stored.
    public var name: String {
        switch self {
        case .success: "success"
        case .failure: "failure"
        }
    }

    /// The failure's reason; nil for a success.
    public var reason: AuditFailureReason? {
        guard case .failure(let reason) = self else { return nil }
        return reason
    }
}

/// Why a sign-in or a change was refused: fixed codes only, never an error's text.
public enum AuditFailureReason: String, Sendable, CaseIterable, Codable {
    /// A password that does not match, or an account with no password (one answer for both).
    case wrongPassword = "wrong_password"
    /// A code, link or nonce that does not match, is spent or has expired.
    case wrongCode = "wrong_code"
    /// Refused before any comparison: the account is locked.
    case locked
    /// Refused before any comparison: the source or the subject is over its limit.
    case rateLimited = "rate_limited"
    /// The address or number has not been confirmed yet.
    case notConfirmed = "not_confirmed"
    /// The user is banned.
    case banned

    /// What an event says of a code refused with `error`: a limit, a lock, or a wrong code.
    init(refusing error: any Error) {
        switch error as? SignInError {
        case .rateLimited?, .sendBudgetSpent?: self = .rateLimited
        case .locked?: self = .locked
        default: self = .wrongCode
        }
    }
}
