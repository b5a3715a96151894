import GatehouseJSON
import StoreCore

extension Factors {
    /// A verified TOTP factor brought from another service (Supabase's `auth.mfa_factors`, by
    /// `gatehouse users import`), so its user keeps their authenticator app: the same id, name
    /// and times, and the secret the app holds (SHA-1, 6 digits, 30 s, as Gatehouse's own).
    public struct Imported: Sendable, Equatable {
        public let id: String
        public let friendlyName: String
        /// Milliseconds since 1970.
        public let createdAt: Double
        /// Milliseconds since 1970.
        public let updatedAt: Double
        /// The shared secret's bytes.
        public let secret: [UInt8]

        public init(id: String, friendlyName: String, createdAt: Double, updatedAt: Double, secret: [UInt8]) {
            self.id = id
            self.friendlyName = friendlyName
            self.createdAt = createdAt
            self.updatedAt = updatedAt
            self.secret = secret
        }
    }

    /// The write that stores `factor` as `userID`'s verified TOTP factor, its secret sealed under
    /// a key of `secret` as an enrolment seals it (`FactorSecretBox`), no code used yet (`lastStep`
    /// 0), on the condition that no item of its key exists: for the caller's transaction (the
    /// user's import), so a user is never stored without the factors it brought.
    public static func importWrite(_ factor: Imported, userID: String, secret: OTPSecret) throws -> WriteOperation {
        let sealed = try FactorSecretBox(secret: secret).seal(factor.secret, userID: userID, factorID: factor.id)
        let stored = Factor(
            id: factor.id, userID: userID, friendlyName: factor.friendlyName, type: "totp", verified: true,
            createdAt: factor.createdAt, updatedAt: factor.updatedAt, lastStep: 0, sealedSecret: sealed)
        return .put(table: table, item: stored.item(ttl: nil), condition: .itemNotExists)
    }
}
