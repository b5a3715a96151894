import GatehouseJSON
import StoreCore

extension SessionService {
    /// Starts a session for `user` in `app`, signed in with `provider` (a password, a confirmed
    /// link), in one transaction that requires the user and the app to still exist, and the user
    /// not to be banned (`SessionError.banned`: the one check every sign-in passes). An app whose
    /// registration does not let its sessions start publicly (`redeem` without `public`: it
    /// signs in through its backend) gets none: `SessionError.notRedeemableHere`, the same rule
    /// `exchange` keeps for codes.
    ///
    /// With `creating`, `user` is new: it is written in the same transaction (which fails,
    /// `SessionError.userNotFound`, if a user with its id exists).
    ///
    /// `proof` names the sign-in in the session's `amr` when `provider` does not say it (a
    /// password: `AuthenticationMethod.password`).
    ///
    /// With `secondFactor`, the session starts at `aal2` on it (a passkey: both factors at once);
    /// `alongWith` are the caller's writes for the same transaction, after the user's and the
    /// app's checks (so a failure of the `n`-th is `StoreError.transactionCanceled` at `2 + n`);
    /// `startedBy` names the credential that signed in (a passkey's id, `RefreshTokens.sessionStart`).
    public func start(
        user: User, app: String, provider: String, proof: String? = nil, creating: Bool = false,
        secondFactor: SecondFactorProof? = nil, startedBy: String? = nil, alongWith extra: [WriteOperation] = []
    ) async throws -> SessionResponse {
        guard try await apps.app(id: app)?.redeem.contains(.public) != false else {
            throw SessionError.notRedeemableHere
        }
        let (refresh, sessionWrites) = refreshTokens.sessionStart(
            userID: user.id, app: app, provider: provider, proof: proof, secondFactor: secondFactor,
            startedBy: startedBy)
        let writes = extra + sessionWrites
        let subject: WriteOperation =
            creating
            ? .put(table: UserDirectory.usersTable, item: user.item, condition: .itemNotExists)
            : UserDirectory.signInCheck(of: user.id, at: (users.clock.now * 1000).rounded(.down))
        do {
            try await store.transactWrite([subject, AppRegistry.existence(of: app)] + writes)
        } catch StoreError.transactionCanceled(index: 0, _, _) where !creating {
            throw try await users.refusal(ofSignInBy: user.id)
        } catch StoreError.transactionCanceled(index: let index, _, _) where index < 2 {
            throw SessionError.userNotFound
        }
        await audit.record(
            creating ? .signUp : .signIn, userID: user.id, app: app,
            method: AuditSignInMethod(provider: provider, proof: proof))
        return try await response(
            .init(user, provider: provider),
            refresh: refresh)
    }

    /// The signed-in user of an `Authorization` header's bearer token for `app`: verified with
    /// this function's keys, and its session still live (one read).
    public func bearer(_ authorization: String?, app: String) async throws -> AccessTokens.Bearer {
        try await accessTokens.verifier.bearer(authorization, app: app, store: store)
    }
}
