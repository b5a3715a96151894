import GatehouseJSON
import StoreCore

extension Factors {
    /// Raises the bearer's session to `aal2` by a second factor's `method` (`factorID` names what
    /// raised it, for `RefreshTokens.lowerSessions`): in one transaction, the caller's `writes`
    /// (what proves the factor: a step kept, a challenge or a recovery code spent) and the
    /// session's (`RefreshTokens.raise`); the answer is that session's new tokens. When one of
    /// `writes` fails its condition, the transaction writes nothing and `refusal(index)` is
    /// thrown; when the session's do, `AccountError.sessionEnded`.
    func raiseSession(
        of user: User, bearer: AccessTokens.Bearer, method: String, factorID: String, proving writes: [WriteOperation],
        refusal: (Int) -> any Error
    ) async throws -> SessionResponse {
        let (grant, sessionWrites) = try await sessions.refreshTokens.raise(
            userID: bearer.userID, sessionID: bearer.sessionID, method: method, factorID: factorID)
        do {
            try await store.transactWrite(writes + sessionWrites)
        } catch StoreError.transactionCanceled(let index, _, _) {
            throw index < writes.count ? refusal(index) : AccountError.sessionEnded
        }
        return try await sessions.response(.init(user, provider: grant.provider), refresh: grant)
    }
}
