/// The service users are moved from at their first password sign-in (Cognito's user pool:
/// `COGNITO_MIGRATION_POOL`), asked by `PasswordAccounts` only for an address that has no
/// Gatehouse password yet.
public protocol PasswordMigrationSource: Sendable {
    /// The account there whose address is `email` and whose password is `password`; nil for any
    /// other answer (a wrong password, no such account, a challenge such as a second factor or a
    /// new password, the service unreachable). One call to the service a try; `password` is
    /// never logged.
    func account(email: EmailAddress, password: String) async -> MigratedAccount?
    /// The same call for `email` with a password no one has (a random one), its answer ignored:
    /// made for an address that has a Gatehouse password already, so that the service is asked
    /// about the same address in every case and its time does not tell an address with a
    /// password from one without.
    func decoy(email: EmailAddress) async
}

/// An account the migration source vouched for with its password.
public struct MigratedAccount: Sendable, Equatable {
    /// Its subject there (Cognito's `sub`): a new user's id when it is a UUID, and its `cognito`
    /// identity.
    public let subject: String
    /// Its address there (Cognito's `email` attribute), normalised; nil when it has none. It is
    /// moved only when this is the address signed in with: a service that signs users in by a
    /// username other than the address may hold an account named after someone else's address.
    public let email: EmailAddress?
    /// Whether the service verified `email`: an address it never verified is not moved (it may
    /// be someone else's).
    public let emailVerified: Bool
    /// Its display name there, when it has one.
    public let name: String?

    public init(subject: String, email: EmailAddress?, emailVerified: Bool, name: String? = nil) {
        self.subject = subject
        self.email = email
        self.emailVerified = emailVerified
        self.name = name
    }
}
