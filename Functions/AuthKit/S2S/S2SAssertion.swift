/// A verified S2S assertion, not yet used: `S2SVerifier.redeem` spends its `jti`.
public struct S2SAssertion: Sendable, Equatable {
    /// The app whose backend signed it (`iss` = `sub`).
    public let app: String
    /// Its unique id, remembered once used.
    public let jti: String
    /// `exp`, seconds since 1970.
    public let expiresAt: Double
    /// Where the app's codes may be redeemed, as registered when its keys were read.
    public let redeem: Set<CodeRedemption>
}
