import GatehouseJSON
import StoreCore

/// `VerifyCode`: an app's backend, authenticated by an S2S assertion, consumes an auth code
/// and learns who signed in, to mint its own tokens instead of Gatehouse's.
public struct CodeVerification: Sendable {
    /// The signed-in user an app's backend learns.
    public struct Result: Sendable, Equatable {
        public let userID: String
        public let email: String?
        public let name: String?
        public let provider: String
        public let isNewUser: Bool

        /// `{userId, email, name, provider, isNewUser}`; a missing email or name is null.
        public var json: JSONValue {
            [
                "userId": .string(userID), "email": email.map(JSONValue.string) ?? .null,
                "name": name.map(JSONValue.string) ?? .null, "provider": .string(provider),
                "isNewUser": .bool(isNewUser),
            ]
        }
    }

    public let assertions: S2SVerifier
    private let codes: AuthCodes
    private let users: UserDirectory
    private let store: any KeyValueStore
    private let clock: any StoreClock
    /// Where a code redeemed by a backend is recorded as its user's sign-in: off for a service
    /// built by hand, unless given one.
    public var audit: AuditLog

    public init(store: any KeyValueStore, clock: any StoreClock, issuer: String) {
        assertions = S2SVerifier(store: store, clock: clock, audience: issuer)
        codes = AuthCodes(store: store, clock: clock)
        users = UserDirectory(store: store, clock: clock)
        self.store = store
        self.clock = clock
        audit = AuditLog(store: store, clock: clock, isEnabled: false)
    }

    /// The service a function runs: `ISSUER` and the rest of `SessionSettings` from
    /// `environment`, and the wall clock. It holds no signing key.
    public init(environment: [String: String], store: any KeyValueStore) throws {
        let settings = try SessionSettings(environment: environment)
        self.init(store: store, clock: SystemStoreClock(), issuer: settings.issuer)
        audit = try AuditLog(environment: environment, store: store, clock: SystemStoreClock())
    }

    /// Consumes `code` for `app`, on the strength of `assertion` (from `assertions.verify`):
    /// the assertion must be `app`'s own, and is spent before the code is touched; the app
    /// must let its backend redeem codes (`App.redeem`). A code bound to a PKCE challenge needs
    /// the matching `codeVerifier`, as `SessionService.exchange` does (`AuthCodeGrant.isRedeemable`):
    /// without it the code is refused as an unknown one, and spent. So is a code whose second
    /// factor (a passkey, the hosted page's code step) no longer holds: removed, flagged or
    /// unverified since it was minted, as `exchange` refuses it.
    public func verify(
        code: String, app: String, codeVerifier: String? = nil, assertion: S2SAssertion
    ) async throws -> Result {
        guard assertion.app == app else { throw S2SError.wrongApp }
        try await assertions.redeem(assertion)
        guard assertion.redeem.contains(.backend) else {
            throw SessionError.notRedeemableHere
        }
        let grant = try await codes.consume(code, app: app)
        guard grant.isRedeemable(with: codeVerifier) else { throw SessionError.invalidCode }
        try await stillSignsIn(grant)
        guard let user = try await users.user(id: grant.userID) else { throw SessionError.invalidCode }
        await audit.record(
            grant.isNewUser ? .signUp : .signIn, userID: user.id, app: app,
            method: AuditSignInMethod(provider: grant.provider))
        return Result(
            userID: user.id, email: user.email ?? grant.email, name: user.name ?? grant.name,
            provider: grant.provider, isNewUser: grant.isNewUser)
    }

    /// Checks, in one transaction, what `exchange` checks before a code's session starts: the
    /// user exists and is not banned (`UserDirectory.signInCheck`: `SessionError.banned`), and
    /// the code's second factor, if any, still holds (`SessionError.invalidCode` otherwise).
    private func stillSignsIn(_ grant: AuthCodeGrant) async throws {
        var checks = [UserDirectory.signInCheck(of: grant.userID, at: (clock.now * 1000).rounded(.down))]
        if let proof = grant.secondFactor { checks.append(proof.stillHolds(userID: grant.userID)) }
        do {
            try await store.transactWrite(checks)
        } catch StoreError.transactionCanceled(index: 0, _, _) {
            throw try await users.refusal(ofCodeFor: grant.userID)
        } catch StoreError.transactionCanceled {
            throw SessionError.invalidCode
        }
    }
}
