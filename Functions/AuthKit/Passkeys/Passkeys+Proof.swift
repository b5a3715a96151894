import GatehouseJSON
import StoreCore

extension Passkeys {
    /// The check, for a caller's transaction, that `userID`'s passkey `passkeyID` is still there
    /// and not flagged: an auth code minted by a passkey's sign-in on the hosted page starts its
    /// `aal2` session only then (`SessionService.exchange`), so a passkey removed (or flagged as
    /// a clone) in the minute between proves nothing.
    public static func stillThere(_ passkeyID: String, userID: String) -> WriteOperation {
        .check(
            table: table, key: ItemKey(.string(userID), .string(Passkey.entry(passkeyID))),
            condition: .attributeEquals("flagged", .bool(false)))
    }
}
