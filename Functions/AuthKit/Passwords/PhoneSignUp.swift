import GatehouseJSON
import StoreCore

/// A number's password sign-up (Supabase's `signUp(phone:password:)`) and its code texted again
/// (`/resend {type: "sms"}`), on `PasswordSignUp`'s rules and `PhoneCodes`' texts and limits.
///
/// - The sign-up is a user whose number waits for the code texted to it
///   (`UserDirectory.createPending(phone:)`), expiring with its password after
///   `PasswordSignUp.pendingLifetime` unless confirmed. The code, typed at
///   `verifyOTP(phone:token:type: .sms)`, confirms it and signs in (`PhoneSignIn`); the password
///   stays only when that code was texted for this sign-up alone and no other sign-up of the
///   number was replaced by it (`SignUpPassword.keptByCode`): the number's owner, typing a code
///   they asked for to sign in, never confirms a password someone else chose.
/// - A number that a confirmed user has gets the same answer (a look-alike user) and, after it,
///   a sign-in code rather than a sign-up's: the owner who forgot signs in with it, and nothing
///   tells whether the number is taken. The password is hashed either way.
/// - Counted per source first (`PasswordSignUp.perSourceIP`), then as any code request is
///   (`PhoneCodes.prepareText`: per source, per number and source, per range and source, then
///   the sending budget): the limits tell nothing about the number either.
public struct PhoneSignUp: Sendable {
    let signUps: PasswordSignUp
    /// The codes it texts.
    public let codes: PhoneCodes

    public init(signUps: PasswordSignUp, codes: PhoneCodes) {
        self.signUps = signUps
        self.codes = codes
    }

    /// Signs `phone` up with `password` for `app`: the user to show (a look-alike that is no one
    /// when the number is taken), and the text, which the caller sends after its answer.
    public func signUp(
        phone: PhoneNumber, password: String, metadata: [String: JSONValue], app: App, sourceIP: String?
    ) async throws -> (user: User, text: @Sendable () async throws -> Void) {
        try signUps.policy.check(password, email: nil)
        _ = try PasswordAccounts.merge(metadata, into: [:])
        try await signUps.countSource(sourceIP)
        let text = try await codes.prepareText(phone, app: app.id, sourceIP: sourceIP)
        let hash = try signUps.hasher.hash(password).description
        let name = PasswordSignUp.name(metadata)
        guard
            let user = try await signUps.users.createPending(
                phone: phone, name: name, metadata: metadata, passwordHash: hash, lifetime: signUps.pendingLifetime)
        else {
            // A confirmed user has the number: a new user's shape, no one's id, a sign-in's code.
            let lookAlike = User.pendingSignUp(
                phone: phone, name: name, metadata: metadata, at: (signUps.clock.now * 1000).rounded(.down))
            return (lookAlike, { try await text(nil) })
        }
        return (user, { try await text(user.id) })
    }

    /// Counts a request to text `phone` its sign-up's code again (Supabase's `/resend`
    /// `{type: "sms"}`): the work, for after the caller's answer, that texts the sign-up's live
    /// code again, or a fresh one for it, when the number has a sign-up waiting (nothing for a
    /// confirmed or unknown number).
    public func resendCode(
        phone: PhoneNumber, app: App, sourceIP: String?
    ) async throws -> @Sendable () async throws -> Void {
        try await signUps.countSource(sourceIP)
        let text = try await codes.prepareText(phone, app: app.id, sourceIP: sourceIP)
        return { [users = signUps.users] in
            guard let user = try await users.user(.phone(phone)), user.phoneIsPending else { return }
            try await text(user.id)
        }
    }
}
