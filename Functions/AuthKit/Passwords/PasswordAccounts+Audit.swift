extension PasswordAccounts {
    /// Counts a password try at `identity`'s account (`PasswordAttempts.begin`), recording a
    /// refusal in the audit log: a locked account answers as a wrong password does, after a
    /// hash's work (the try that locks it is recorded as `lock`); a source over its limit is
    /// `SignInError.rateLimited`.
    func begin(_ identity: SignInIdentity, password: String, app: App, sourceIP: String?) async throws {
        do {
            try await attempts.begin(account: identity.providerEntry.subject, sourceIP: sourceIP)
        } catch SignInError.locked(let retryAfter) {
            hasher.burn(password)
            // The try that locks is refused for the lock's whole time; a later one for less.
            let locking = retryAfter >= Int(PasswordAttempts.lock.rules.first?.lockSeconds ?? 0)
            let users = sessions.users
            // The account is read after the answer, not while the caller waits.
            await sessions.audit.record(
                locking ? .lock : .signIn, app: app.id, outcome: .failure(.locked), method: .password
            ) { try await users.user(identity)?.id }
            throw AccountError.invalidCredentials
        } catch SignInError.rateLimited(let retryAfter) {
            await refused(.rateLimited, userID: nil, app: app)
            throw SignInError.rateLimited(retryAfter: retryAfter)
        }
    }

    /// Records a refused password sign-in.
    func refused(_ reason: AuditFailureReason, userID: String?, app: App) async {
        await sessions.audit.record(.signIn, userID: userID, app: app.id, outcome: .failure(reason), method: .password)
    }
}
