import Crypto
import GatehouseJSON
import JOSE
import StoreCore

/// The check of a reauthentication nonce that `Reauthentication.send` mailed: what a route that
/// needs a recent sign-in takes instead (a password or address change, deleting the account).
/// It needs only the store and the OTP secret the nonce was kept under, never a sender, so a
/// function that only checks nonces (`DeleteAccount`) holds nothing that mails.
///
/// Tries are counted before each comparison: 30 per 5 minutes per source, and 5 an hour per
/// user lock that user's nonces for the hour (only the user's own session can try one).
public struct ReauthenticationNonces: Sendable {
    public static let perSourceIP = RateLimit.perSource(name: "reauth:ip", limit: 30, window: 300)
    static let tries = TryLock(
        name: "reauth-lock",
        rules: [.init(limit: RateLimit(name: "reauth-tries", limit: 5, window: 3600), lockSeconds: 3600)])

    let store: any KeyValueStore
    let clock: any StoreClock
    private let secret: OTPSecret?

    /// Nonces kept under `secret` (the OTP secret; nil: SHA-256 with a salt, as `send` keeps
    /// them without one).
    public init(store: any KeyValueStore, clock: any StoreClock, secret: OTPSecret?) {
        self.store = store
        self.clock = clock
        self.secret = secret
    }

    /// Uses up `nonce`, the one mailed to `userID`, asked from `sourceIP`;
    /// `AccountError.reauthenticationNotValid` when it is wrong, used, expired, locked or limited.
    public func consume(_ nonce: String, userID: String, sourceIP: String?) async throws {
        let limiter = RateLimiter(store: store, clock: clock)
        if let sourceIP, case .limited = try await limiter.hit(Self.perSourceIP, subject: sourceIP) {
            throw AccountError.reauthenticationNotValid
        }
        do {
            try await Self.tries.countTry(userID, store: store, clock: clock)
        } catch SignInError.locked {
            throw AccountError.reauthenticationNotValid
        }
        let key = ItemKey(.string(Self.key(userID)))
        guard let item = try await store.get(EmailTokens.table, key: key),
            let stored = item["nonceHash"]?.stringValue, let salt = item["salt"]?.stringValue,
            let expiresAt = item["expiresAt"]?.numberValue, clock.now * 1000 < expiresAt,
            ConstantTime.equal(stored, digest(nonce, userID: userID, salt: salt))
        else { throw AccountError.reauthenticationNotValid }
        do {
            _ = try await store.delete(
                EmailTokens.table, key: key, condition: .attributeEquals("nonceHash", .string(stored)))
        } catch StoreError.conditionFailed {
            throw AccountError.reauthenticationNotValid  // used by a racing request
        }
        try await Self.tries.clear(userID, store: store, clock: clock)
    }

    /// What the store keeps of `nonce` for `userID` with `salt`.
    func digest(_ nonce: String, userID: String, salt: String) -> String {
        let message = Array("reauth:\(userID):\(salt):\(nonce)".utf8)
        if let secret {
            return Base64URL.encode(Array(HMAC<SHA256>.authenticationCode(for: message, using: secret.key)))
        }
        return Base64URL.encode(Array(SHA256.hash(data: message)))
    }

    /// The key of `userID`'s nonce in `EmailTokens`.
    static func key(_ userID: String) -> String { "reauth:\(userID)" }
}
