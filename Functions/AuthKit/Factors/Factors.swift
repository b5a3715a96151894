import GatehouseJSON
import StoreCore

/// Second factors (TOTP authenticator apps) in `Factors`, as Supabase's `/factors` routes shape
/// them: enrolled unverified with a fresh secret, challenged by a session, verified with a code
/// of the app (which raises that session to `aal2`, `Factors+Verify`), unenrolled.
///
/// Items of one user share a partition: `factor:<id>` (`Factor`) and `challenge:<id>`
/// (`FactorChallenge`), and the recovery codes' `recovery…` (`Factors+Recovery`), so a request
/// only ever finds the bearer's own.
public struct Factors: Sendable {
    public static let table = "Factors"
    /// How long an unverified factor lives, in seconds: a day.
    public static let unverifiedLifetime: Double = 86_400
    /// How long a challenge can be verified, in seconds: 5 minutes.
    public static let challengeLifetime: Double = 300
    /// Factors one user may have, verified or not (supabase/auth's `MaxEnrolledFactors` default).
    public static let maximumFactors = 10

    let store: any KeyValueStore
    let clock: any StoreClock
    /// Nil without an OTP secret: TOTP factors are then off (`FactorError.totpNotEnabled`).
    let box: FactorSecretBox?
    /// The digests of recovery codes (`Factors+Recovery`), under a key of the same OTP secret.
    let recovery: RecoveryCodes?
    /// The sessions a verify raises.
    let sessions: SessionService

    public init(store: any KeyValueStore, clock: any StoreClock, secret: OTPSecret?, sessions: SessionService) {
        self.store = store
        self.clock = clock
        box = secret.map(FactorSecretBox.init(secret:))
        recovery = secret.map(RecoveryCodes.init(secret:))
        self.sessions = sessions
    }

    /// The factors a function keeps: TOTP secrets sealed under a key from the OTP secret
    /// `environment` configures (off without one), on the wall clock.
    public init(environment: [String: String], store: any KeyValueStore, sessions: SessionService) throws {
        self.init(
            store: store, clock: SystemStoreClock(), secret: try OTPSecret.optional(environment: environment),
            sessions: sessions)
    }

    /// What enrolling answers once, and never again: the factor, its secret in base32 and the
    /// `otpauth://` URI an authenticator app reads.
    public struct Enrollment: Sendable {
        public let factor: Factor
        public let secret: String
        public let uri: String
        /// The recovery codes issued with a first factor (`Factors+Recovery`); else empty.
        public var recoveryCodes: [String] = []
    }

    /// `userID`'s live factors, oldest first.
    public func list(userID: String) async throws -> [Factor] {
        try await Self.list(userID: userID, in: store)
    }

    /// `userID`'s live factors in `store`, oldest first: what a function that answers with a
    /// user (and may only read `Factors`) lists.
    public static func list(userID: String, in store: any KeyValueStore) async throws -> [Factor] {
        try await store.query(
            Self.table, partition: .string(userID), sortKey: .beginsWith("factor:"), limit: nil, ascending: true
        )
        .compactMap(Factor.init(item:)).sorted { $0.createdAt < $1.createdAt }
    }

    /// Deletes every item `userID` has in the table (its factors and their challenges): what an
    /// account's deletion (`Accounts.delete`) leaves nothing of. Run once the user is gone, so a
    /// deletion that fails never strips a live account of its second factor.
    public static func removeAll(userID: String, in store: any KeyValueStore) async throws {
        let items = try await store.query(
            Self.table, partition: .string(userID), sortKey: nil, limit: nil, ascending: true)
        for item in items {
            guard let entry = item["entry"] else { continue }
            _ = try await store.delete(Self.table, key: ItemKey(.string(userID), entry), condition: nil)
        }
    }

    /// The bearer's factor `id`: `FactorError.factorNotFound` when the user has none of that id.
    public func factor(_ id: String, userID: String) async throws -> Factor {
        guard id.utf8.count <= 64,
            let item = try await store.get(Self.table, key: ItemKey(.string(userID), .string(Factor.entry(id)))),
            let factor = Factor(item: item)
        else { throw FactorError.factorNotFound }
        return factor
    }

    /// A new unverified TOTP factor of `user`, who signed in as `bearer`: 20 random bytes of
    /// secret (RFC 4226's recommended length), sealed in the store. Refused by name: another
    /// factor of the same `friendlyName`, too many factors, and, once a factor is verified, a
    /// session below `aal2` (as supabase/auth's `validateFactors`).
    public func enroll(
        friendlyName: String, issuer: String, for user: User, bearer: AccessTokens.Bearer
    ) async throws -> Enrollment {
        guard let box else { throw FactorError.totpNotEnabled }
        let existing = try await list(userID: user.id)
        try checkEnrollable(friendlyName: friendlyName, existing: existing, bearer: bearer)
        let id = RandomToken.uuid()
        let secret = RandomToken.bytes(20)
        let now = clock.now
        let factor = Factor(
            id: id, userID: user.id, friendlyName: friendlyName, type: "totp", verified: false,
            createdAt: now * 1000, updatedAt: now * 1000, lastStep: 0,
            sealedSecret: try box.seal(secret, userID: user.id, factorID: id))
        try await store.put(
            Self.table, item: factor.item(ttl: (now + Self.unverifiedLifetime).rounded(.up)),
            condition: .itemNotExists)
        let encoded = Base32.encode(secret)
        var enrollment = Enrollment(
            factor: factor, secret: encoded,
            uri: Self.uri(secret: encoded, issuer: issuer, account: user.email ?? user.phone ?? user.id))
        if !existing.contains(where: \.verified) {
            enrollment.recoveryCodes = try await issueRecoveryCodes(for: factor, besides: existing)
        }
        return enrollment
    }

    /// What every new factor of a user with the factors `existing` must meet (supabase/auth's
    /// `validateFactors`): no other of the same `friendlyName`, fewer than `maximumFactors`, and,
    /// once one is verified, an `aal2` session.
    func checkEnrollable(friendlyName: String, existing: [Factor], bearer: AccessTokens.Bearer) throws {
        if !friendlyName.isEmpty, existing.contains(where: { $0.friendlyName == friendlyName }) {
            throw FactorError.nameConflict(friendlyName)
        }
        guard existing.count < Self.maximumFactors else { throw FactorError.tooManyFactors }
        if existing.contains(where: \.verified), bearer.sessionAAL != "aal2" {
            throw FactorError.insufficientAAL(enrolling: true)
        }
    }

    /// A challenge of the bearer's factor `factorID`, bound to the bearer's session.
    public func challenge(_ factorID: String, bearer: AccessTokens.Bearer) async throws -> FactorChallenge {
        let factor = try await factor(factorID, userID: bearer.userID)
        let challenge = FactorChallenge(
            id: RandomToken.uuid(), factorID: factor.id, sessionID: bearer.sessionID,
            expiresAt: (clock.now + Self.challengeLifetime).rounded(.down))
        try await store.put(Self.table, item: challenge.item(userID: bearer.userID), condition: .itemNotExists)
        return challenge
    }

    /// Removes the bearer's factor `factorID`; a verified one only from an `aal2` session
    /// (`insufficient_aal`). The sessions it raised go back to `aal1` (supabase/auth's
    /// `DowngradeSessionsToAAL1`).
    public func unenroll(_ factorID: String, bearer: AccessTokens.Bearer) async throws {
        let factor = try await factor(factorID, userID: bearer.userID)
        let isAAL2 = bearer.sessionAAL == "aal2"
        if factor.verified, !isAAL2 { throw FactorError.insufficientAAL(enrolling: false) }
        do {
            // Below aal2, only while it is still unverified: one verified meanwhile stays.
            _ = try await store.delete(
                Self.table, key: ItemKey(.string(bearer.userID), .string(Factor.entry(factor.id))),
                condition: isAAL2 ? nil : .attributeEquals("status", "unverified"))
        } catch StoreError.conditionFailed {
            throw FactorError.insufficientAAL(enrolling: false)
        }
        try await sessions.refreshTokens.lowerSessions(userID: bearer.userID, raisedBy: factor.id)
        try await removeRecoveryCodesWithoutFactor(userID: bearer.userID)
        if factor.verified { await sessions.audit.record(.factorRemoved, userID: bearer.userID, app: bearer.app) }
    }

    /// Deletes `userID`'s unverified factors but `keeping` (supabase/auth's
    /// `DeleteUnverifiedFactors` at a verify): one enrolled by someone else who held the password
    /// before the owner turned MFA on can never be verified later.
    func removeUnverified(userID: String, keeping: String) async throws {
        for other in try await list(userID: userID) where !other.verified && other.id != keeping {
            _ = try await store.delete(
                Self.table, key: ItemKey(.string(userID), .string(Factor.entry(other.id))),
                condition: .attributeEquals("status", "unverified"))
        }
    }

    /// The `otpauth://totp/` URI of `secret` (Google Authenticator's key URI format).
    static func uri(secret: String, issuer: String, account: String) -> String {
        let label = percentEncoded(issuer) + ":" + percentEncoded(account)
        return "otpauth://totp/\(label)?algorithm=SHA1&digits=6&issuer=\(percentEncoded(issuer))&period=30"
            + "&secret=\(secret)"
    }

    /// `text` with every byte but RFC 3986's unreserved ones percent-encoded.
    static func percentEncoded(_ text: String) -> String {
        var output = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                output.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = String(byte, radix: 16, uppercase: true)
                output += "%" + (hex.count == 1 ? "0" + hex : hex)
            }
        }
        return output
    }
}
