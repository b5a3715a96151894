import GatehouseJSON

/// A second factor proved before the session it raises started (the hosted page's code step,
/// `SecondFactorSignIn`): an auth code carrying it starts its session at `aal2`, the factor's
/// method in `amr` beside the first one's, the session raised by that factor (so unenrolling it
/// lowers the session, `RefreshTokens.lowerSessions`).
public struct SecondFactorProof: Sendable, Equatable {
    /// The `amr` method: `totp`.
    public let method: String
    /// The factor whose code was verified.
    public let factorID: String

    public init(method: String, factorID: String) {
        self.method = method
        self.factorID = factorID
    }

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
