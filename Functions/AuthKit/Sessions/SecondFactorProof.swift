import GatehouseJSON
import StoreCore

/// A second factor proved before the session it raises started (the hosted page's code step,
/// `SecondFactorSignIn`): an auth code carrying it starts its session at `aal2`, the factor's
/// method in `amr` beside the first one's, the session raised by that factor (so unenrolling it
/// lowers the session, `RefreshTokens.lowerSessions`).
public struct SecondFactorProof: Sendable, Equatable {
    /// The method of a passkey's proof (MFA's WebAuthn): the passkey is both factors.
    public static let passkeyMethod = "webauthn"

    /// The `amr` method: `totp`, `phone`, or `webauthn` for a passkey.
    public let method: String
    /// The factor whose code was verified.
    public let factorID: String

    public init(method: String, factorID: String) {
        self.method = method
        self.factorID = factorID
    }

    /// The check, for the transaction that starts the session, that the proof still holds: a
    /// passkey's (`passkeyMethod`) is still there and not flagged (`Passkeys.stillThere`), any
    /// other factor still verified (`Factors.stillVerified`).
    public func stillHolds(userID: String) -> WriteOperation {
        method == Self.passkeyMethod
            ? Passkeys.stillThere(factorID, userID: userID) : Factors.stillVerified(factorID, userID: userID)
    }

    /// The credential that signed the session in, when the proof is a passkey's (the hosted
    /// page's code): its removal ends the session (`RefreshTokens.endSessions(userID:startedBy:)`).
    /// A factor proved after another way in signed nothing in itself.
    public var signedInBy: String? { method == Self.passkeyMethod ? factorID : nil }

    /// As an auth code's record keeps it.
    var json: JSONValue { ["method": .string(method), "factorId": .string(factorID)] }

    /// The proof an auth code's record keeps; nil from anything else.
    init?(_ value: JSONValue?) {
        guard case .string(let method)? = value?["method"], case .string(let factorID)? = value?["factorId"] else {
            return nil
        }
        self.init(method: method, factorID: factorID)
    }
}
