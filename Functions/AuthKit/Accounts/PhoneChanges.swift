import StoreCore

/// A signed-in user's move to a new number (Supabase's `PUT /user {phone}`, then
/// `verifyOTP(phone:token:type: .phoneChange)`): a code texted to the new number
/// (`PhoneCodes+Change.swift`), and the number changed once it is typed.
///
/// - The request is checked and counted whether or not the number is free, and answered the
///   same; the code is texted after the answer, and only to a number no user has: nothing tells
///   whether the number is taken, nor is its owner texted for someone else's account.
/// - The code, typed with the new number, moves the user it was asked for to it
///   (`UserDirectory.changePhone`: the old number's index item goes, the new one's must be new,
///   in one transaction); a number taken meanwhile is `AccountError.phoneExists`.
/// - What the request needs of the session (a recent sign-in or the mailed nonce) is
///   `PasswordAccounts.update`'s, as for a new address.
public struct PhoneChanges: Sendable {
    /// The codes it texts and checks.
    public let codes: PhoneCodes
    let users: UserDirectory
    /// Where a changed number is recorded; nil: nowhere.
    let audit: AuditLog?

    public init(codes: PhoneCodes, users: UserDirectory, audit: AuditLog? = nil) {
        self.codes = codes
        self.users = users
        self.audit = audit
    }

    /// Counts `user`'s request to move to `phone` from `sourceIP` (in `app`): the work, for after
    /// the caller's answer, that texts the code when no user has the number.
    public func request(
        to phone: PhoneNumber, for user: User, app: String, sourceIP: String?
    ) async throws -> @Sendable () async throws -> Void {
        let text = try await codes.prepareChange(to: phone, for: user.id, app: app, sourceIP: sourceIP)
        return { [users] in
            // Free, or held only by a password sign-up still waiting for its code (a reservation,
            // maybe a stranger's: the change replaces it).
            guard try await users.user(.phone(phone)).map(\.phoneIsPending) ?? true else { return }
            try await text()
        }
    }

    /// Checks `code` for the change to `phone` and makes it: the user, now with that number.
    /// `SignInError.codeRefused` for a wrong, used or expired code; `AccountError.userNotFound`
    /// when the user is gone; `phoneExists` when the number was taken meanwhile.
    public func confirm(_ phone: PhoneNumber, code: String?, sourceIP: String?, app: String) async throws -> User {
        let userID = try await codes.verifyChange(phone, code: code, sourceIP: sourceIP, app: app)
        guard let user = try await users.user(id: userID) else { throw AccountError.userNotFound }
        let changed = try await users.changePhone(of: user, to: phone)
        await audit?.record(.phoneChange, userID: user.id, app: app)
        return changed
    }
}
