import GatehouseJSON
import StoreCore

extension Factors {
    /// Refuses, with `AccountError.secondFactorNeeded`, a change that a verified second factor
    /// guards (a new password, address or number, the account's deletion) asked from a session
    /// below `aal2` (`sessionAAL`, the session row's level) of a user who has one, as
    /// supabase/auth's `UserUpdate` does. A session already at `aal2` costs no read.
    public static func requireSecondFactor(
        userID: String, sessionAAL: String?, in store: any KeyValueStore
    )
        async throws
    {
        guard sessionAAL != "aal2" else { return }
        if try await list(userID: userID, in: store).contains(where: \.verified) {
            throw AccountError.secondFactorNeeded
        }
    }

    /// The check, for a caller's transaction, that `userID`'s factor `factorID` is still there
    /// and verified (an auth code minted after the hosted second step starts an `aal2` session
    /// only then).
    public static func stillVerified(_ factorID: String, userID: String) -> WriteOperation {
        .check(
            table: table, key: ItemKey(.string(userID), .string(Factor.entry(factorID))),
            condition: .attributeEquals("status", "verified"))
    }
}
