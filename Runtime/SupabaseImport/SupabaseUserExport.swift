import AuthKit
import GatehouseJSON
import StoreCore

/// Every user of the store as one row of the shape `SupabaseUserImport` reads (Supabase's
/// `auth.users` with its `identities`, and `factors`: docs/supabase.md), one JSON object a line,
/// oldest user first, so that importing the lines into an empty store and exporting it again
/// gives the same lines. Without `includeSecrets`, no row has `encrypted_password` or
/// `factors`: with it, the password hash as stored (scrypt, or an imported bcrypt hash) and each
/// verified TOTP factor with its secret opened (base32, as Supabase stores it unencrypted), which
/// an import seals again under its own OTP secret.
///
/// Left out, and counted (`Report`): anonymous users and sign-ups whose number waits for its
/// texted code (neither would be imported), phone and WebAuthn factors, and passkeys (an
/// import brings none of them).
public struct SupabaseUserExport: Sendable {
    let store: any KeyValueStore
    /// The password hashes and TOTP secrets too.
    let includeSecrets: Bool
    /// What the TOTP secrets are sealed under, for `includeSecrets`; nil: no TOTP factor is
    /// exported (each counted in the report).
    let otpSecret: OTPSecret?

    public init(store: any KeyValueStore, includeSecrets: Bool, otpSecret: OTPSecret?) {
        self.store = store
        self.includeSecrets = includeSecrets
        self.otpSecret = otpSecret
    }

    /// What an export wrote and left out.
    public struct Report: Sendable, Equatable {
        public internal(set) var rows = 0
        public internal(set) var withPassword = 0
        public internal(set) var factors = 0
        /// What was not exported, by reason, counted.
        public internal(set) var leftOut: [String: Int] = [:]

        /// The counts as lines, never an address or a hash.
        public var lines: [String] {
            let reasons = leftOut.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }
            return ["\(rows) users exported (\(withPassword) with a password hash, \(factors) TOTP factors)"]
                + reasons.map { "left out: \($0)" }
        }
    }

    /// Writes each user's line to `write`, oldest first.
    public func run(write: (String) -> Void) async throws -> Report {
        let users = try await store.scan(UserDirectory.usersTable, limit: nil).compactMap(User.init(item:))
            .sorted { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) }
        var report = Report()
        for user in users {
            if let reason = Self.notExported(user) {
                report.leftOut[reason, default: 0] += 1
                continue
            }
            let row = try await row(of: user, report: &report)
            write(JSONValue.object(row).serialized)
            report.rows += 1
        }
        return report
    }

    /// Why `user` is not exported (an import would not bring it), or nil.
    static func notExported(_ user: User) -> String? {
        if user.isAnonymous { return "anonymous users" }
        if user.phoneIsPending { return "sign-ups waiting for their texted code" }
        return nil
    }

    /// `user`'s row, with its secrets when they are asked for; counts what is left out.
    func row(of user: User, report: inout Report) async throws -> [String: JSONValue] {
        var row = Self.row(of: user)
        let factors = try await Factors.list(userID: user.id, in: store)
        for factor in factors where factor.type != "totp" || !factor.verified {
            report.leftOut["\(factor.verified ? "" : "unverified ")\(factor.type) factors", default: 0] += 1
        }
        let passkeys = try await store.query(
            Passkeys.table, partition: .string(user.id), sortKey: .beginsWith("passkey:"), limit: nil, ascending: true)
        if !passkeys.isEmpty { report.leftOut["passkeys", default: 0] += passkeys.count }
        let totp = factors.filter { $0.type == "totp" && $0.verified }
        guard includeSecrets else {
            if !totp.isEmpty {
                report.leftOut["TOTP factors (their secrets need --include-password-hashes)", default: 0] += totp.count
            }
            return row
        }
        if let hash = try await PasswordCredentials.hash(userID: user.id, in: store) {
            row["encrypted_password"] = .string(hash)
            report.withPassword += 1
        }
        guard let otpSecret else {
            if !totp.isEmpty {
                report.leftOut["TOTP factors (no OTP secret to open their secrets)", default: 0] += totp.count
            }
            return row
        }
        let exported = try totp.compactMap { try Factors.exported($0, secret: otpSecret) }
        if !exported.isEmpty {
            row["factors"] = .array(exported.map(Self.factor))
            report.factors += exported.count
        }
        return row
    }
}
