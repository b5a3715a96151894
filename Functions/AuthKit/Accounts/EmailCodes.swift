import Crypto
import GatehouseJSON
import JOSE
import StoreCore

/// The six-digit codes mailed with a link, each standing for that link (Supabase's `{email,
/// token}` form of `/verify`): an account email's (`EmailTokens`) or a sign-in link's
/// (`MagicLinks`).
///
/// - A code is kept in its link's table, one per address and `Slot` (what the link is for):
///   the last one mailed, as an HMAC under the OTP secret with the key of its link, never as
///   itself, and it lives as long as its link.
/// - Each try is counted first per source and per app across all addresses
///   (`CodeGuesses.emailCodes`), then per address and source and per address
///   (`wrongCodesPerAddressAndSource`, `wrongCodesPerAddress`), then on every live code of the
///   slots tried (`CodeTries`: a code is dead after its 5th wrong try), before any is compared.
///   Past them, the address's codes are refused for the hour, but never its links, so its owner
///   is never kept out, and guessers with many sources cannot keep drawing fresh codes with
///   fresh tries.
/// - The comparison is the HMAC's own constant-time check; a right code is deleted on the
///   condition that it is still that code, so it works once.
public struct EmailCodes: Sendable {
    /// Where a code is kept: the table of its link, and what the link is for (its kind, or a
    /// sign-in link's `magiclink:{app}`).
    public struct Slot: Sendable, Hashable {
        public let table: String
        public let purpose: String

        public init(table: String, purpose: String) {
            self.table = table
            self.purpose = purpose
        }
    }

    /// Wrong tries a mailed code takes before it is dead.
    public static let triesPerCode = 5
    /// Wrong codes one address may be sent in an hour, from everyone: past it, the address's
    /// codes are refused for the rest of the hour, while the links mailed with them still work.
    /// Each source (an IPv6 /64) adds at most `wrongCodesPerAddressAndSource` to it, so tripping
    /// it takes 6 sources.
    public static let wrongCodesPerAddress = RateLimit(name: "email-code:address", limit: 30, window: 3600)
    /// Wrong codes one source may send one address in an hour: past it, that source's tries at
    /// that address are refused, and no longer counted at the address.
    public static let wrongCodesPerAddressAndSource = RateLimit(
        name: "email-code:address-source", limit: 5, window: 3600)

    let store: any KeyValueStore
    let clock: any StoreClock
    let secret: OTPSecret

    public init(store: any KeyValueStore, clock: any StoreClock, secret: OTPSecret) {
        self.store = store
        self.clock = clock
        self.secret = secret
    }

    /// Makes a code for the link whose key is `link`, mailed to `email`, keeps it in `slot`
    /// (replacing the one mailed before) until `expires` (seconds) and a day more, and returns it.
    public func issue(_ slot: Slot, email: String, link: String, expires: Double) async throws -> String {
        let code = PhoneCodes.sixDigits(UInt32.random(in: 0..<1_000_000))
        try await store.put(
            slot.table,
            item: [
                "tokenHash": .string(Self.key(slot, email)), "link": .string(link),
                "codeHash": .string(Base64URL.encode(digest(slot, email, code))),
                "expiresAt": .number((expires * 1000).rounded(.down)),
                "ttl": .number((expires + 86400).rounded(.up)),
            ], condition: nil)
        return code
    }

    /// The key of the link whose code `code` was mailed to `email` in one of `slots`, the code
    /// used up; `AccountError.linkExpired` for a wrong, used or expired code, or one past its
    /// tries or its address's limits; `SignInError.rateLimited` past `CodeGuesses.emailCodes`.
    public func redeem(
        email: EmailAddress, code: String, slots: [Slot], sourceIP: String?, app: String
    ) async throws -> (slot: Slot, link: ItemKey) {
        guard code.utf8.count == 6, code.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else {
            throw AccountError.linkExpired
        }
        try await CodeGuesses.emailCodes.count(sourceIP: sourceIP, app: app, store: store, clock: clock)
        let limiter = RateLimiter(store: store, clock: clock)
        let source = SourceKey.of(email.value, from: sourceIP)
        if case .limited = try await limiter.hit(Self.wrongCodesPerAddressAndSource, subject: source) {
            throw AccountError.linkExpired
        }
        if case .limited = try await limiter.hit(Self.wrongCodesPerAddress, subject: email.value) {
            throw AccountError.linkExpired  // codes of an address under attack: the link still works
        }
        for slot in slots {
            let key = ItemKey(.string(Self.key(slot, email.value)))
            guard let (stored, link) = try await countTry(key, in: slot.table),
                let mac = Base64URL.decode(stored),
                HMAC<SHA256>.isValidAuthenticationCode(
                    mac, authenticating: Self.message(slot, email.value, code), using: secret.key)
            else { continue }
            do {
                _ = try await store.delete(
                    slot.table, key: key, condition: .attributeEquals("codeHash", .string(stored)))
            } catch StoreError.conditionFailed {
                throw AccountError.linkExpired  // replaced by a newer code, or used, meanwhile
            }
            await CodeGuesses.emailCodes.succeeded(sourceIP: sourceIP, app: app, store: store, clock: clock)
            try? await limiter.undo(Self.wrongCodesPerAddress, subject: email.value)
            try? await limiter.undo(Self.wrongCodesPerAddressAndSource, subject: source)
            return (slot, ItemKey(.string(link)))
        }
        throw AccountError.linkExpired
    }

    /// Counts a try at the live code item `key` in `table`: its code's hash and its link's key,
    /// or nil when there is none, or it has had its tries (this try took the count past them).
    private func countTry(_ key: ItemKey, in table: String) async throws -> (codeHash: String, link: String)? {
        guard let item = try await store.get(table, key: key), let stored = item["codeHash"]?.stringValue,
            let link = item["link"]?.stringValue, let expiresAt = item["expiresAt"]?.numberValue,
            clock.now * 1000 < expiresAt
        else {
            // The same write as when there is a code, refused: whether an address was mailed a
            // code (a recovery's, only for a registered one) must not show in the time.
            _ = try? await CodeTries.count(
                at: key, in: table, identity: ("codeHash", ""), limit: Self.triesPerCode, store: store)
            return nil
        }
        guard
            try await CodeTries.count(
                at: key, in: table, identity: ("codeHash", .string(stored)), limit: Self.triesPerCode, store: store)
        else { return nil }
        return (stored, link)
    }

    /// The key of the code item of `slot` for `email`.
    static func key(_ slot: Slot, _ email: String) -> String { "code:\(slot.purpose):\(email)" }

    private static func message(_ slot: Slot, _ email: String, _ code: String) -> [UInt8] {
        Array("\(slot.purpose):\(email):\(code)".utf8)
    }

    private func digest(_ slot: Slot, _ email: String, _ code: String) -> [UInt8] {
        Array(HMAC<SHA256>.authenticationCode(for: Self.message(slot, email, code), using: secret.key))
    }
}
