import GatehouseJSON
import StoreCore

extension PasswordAccounts {
    /// What a used link gives: the user, signed in, and where the browser goes.
    public struct Verified: Sendable {
        public let user: User
        public let session: SessionResponse
        public let kind: EmailTokens.Kind
        public let redirectTo: String
    }

    /// Uses a link of one of `kinds` and signs its user in:
    /// - `signup` confirms the address it was sent to;
    /// - `recovery` signs in (the app then asks for a new password), confirming the address too
    ///   and, for an account never confirmed, dropping the password whoever signed it up chose;
    /// - `email_change` moves the user to the new address.
    /// A link whose user or address has changed since it was sent is refused as expired.
    public func verify(token: String, kinds: Set<EmailTokens.Kind>) async throws -> Verified {
        try await use(try await links.consume(token, kinds: kinds))
    }

    /// `verify(token:kinds:)` for the six-digit code mailed to `email` with the link.
    public func verify(
        email text: String, code: String, kinds: Set<EmailTokens.Kind>, sourceIP: String?, app: String
    ) async throws -> Verified {
        try await use(
            try await links.consume(
                email: EmailAddress.required(text), code: code, kinds: kinds, sourceIP: sourceIP, app: app))
    }

    private func use(_ record: EmailTokens.Record) async throws -> Verified {
        guard var user = try await sessions.users.user(id: record.userID) else { throw AccountError.linkExpired }
        switch record.kind {
        case .signup, .recovery:
            guard user.email == record.email else { throw AccountError.linkExpired }
            if user.emailIsPending {
                user = try await sessions.users.confirmEmail(of: user, droppingPassword: record.kind == .recovery)
            }
        case .emailChange:
            guard let email = EmailAddress(record.email) else { throw AccountError.linkExpired }
            user = try await sessions.users.changeEmail(of: user, to: email)
        }
        let (signedIn, session) = try await startSession(for: user, app: record.app)
        return Verified(user: signedIn, session: session, kind: record.kind, redirectTo: record.redirectTo)
    }

    /// Where a link of `token` would return to, checked against its app, before the link is
    /// used: `redirectTo` when it is the app's (`AccountError.redirectNotAllowed` otherwise),
    /// else the one recorded when it was sent. Nil for an unknown token.
    public func redirect(for token: String, requested redirectTo: String?) async throws -> String? {
        guard let record = try await links.peek(token) else { return nil }
        guard let redirectTo else { return record.redirectTo }
        guard let app = try await sessions.apps.app(id: record.app) else { return nil }
        return try AppRedirect.resolve(redirectTo, app: app)
    }
}
