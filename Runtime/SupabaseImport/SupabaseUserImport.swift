import AuthKit
import GatehouseJSON
import StoreCore

/// Imports an export of Supabase's users (`SupabaseExport`) into the store, one user at a time,
/// each in its own conditional transaction (`UserDirectory.importUser`): a user whose id is
/// stored already, or whose address, phone or provider subject another user has, is skipped and
/// nothing of it written, so a second run of the same file changes nothing. A user's verified
/// TOTP factors come in its transaction, their secrets sealed under `otpSecret` as the functions
/// seal them (`Factors.importWrite`); every factor left out is reported with its reason.
public struct SupabaseUserImport: Sendable {
    let directory: UserDirectory
    let clock: any StoreClock
    /// The functions' OTP secret, which TOTP secrets are sealed under; nil: none is brought (each
    /// reported).
    let otpSecret: OTPSecret?

    public init(store: any KeyValueStore, clock: any StoreClock, otpSecret: OTPSecret? = nil) {
        directory = UserDirectory(store: store, clock: clock)
        self.clock = clock
        self.otpSecret = otpSecret
    }

    /// Writes every row that is a user; what was imported and skipped, and why.
    public func run(_ export: SupabaseExport) async throws -> ImportReport {
        var report = ImportReport()
        for row in export.rows {
            try await report.record(row, outcome: outcome(of: row))
        }
        return report
    }

    /// What became of one row.
    func outcome(of row: SupabaseExport.Row) async throws -> ImportReport.Outcome {
        if let problem = row.problem { return .skipped(id: nil, reason: "bad row: \(problem)") }
        let read: SupabaseUserRow
        do {
            read = try SupabaseUserRow(row.values)
        } catch {
            let id = row.values["id"]?.stringValue.flatMap(UUIDText.canonical)
            return .skipped(id: id, reason: error.description)
        }
        let (factorWrites, factorsLeftOut) = try factors(of: read)
        let result = try await directory.importUser(
            read.user, identities: read.identities, passwordHash: read.passwordHash, alsoWriting: factorWrites)
        switch result {
        case .imported:
            return .imported(
                read.user, hasPassword: read.passwordHash != nil, leftOut: read.leftOut,
                factors: factorWrites.count, factorsLeftOut: factorsLeftOut,
                scrypt: read.passwordHash?.hasPrefix("$scrypt$") == true)
        case .alreadyPresent:
            return .alreadyPresent(id: read.user.id)
        case .taken(let identity, let holder):
            return .skipped(id: read.user.id, reason: Self.reason(identity, holder: holder))
        case .passwordPresent:
            return .skipped(id: read.user.id, reason: "a password is stored for this id without a user")
        case .otherPresent:
            return .skipped(id: read.user.id, reason: "a factor of this user's is stored without the user")
        }
    }

    /// The writes of `read`'s TOTP factors, and why each factor left out is.
    func factors(of read: SupabaseUserRow) throws -> (writes: [WriteOperation], leftOut: [String]) {
        guard let otpSecret else {
            let none = read.factors.totp.map { _ in "a TOTP factor (no OTP secret to seal its secret under)" }
            return ([], read.factors.leftOut + none)
        }
        let writes = try read.factors.totp.map { try Factors.importWrite($0, userID: read.user.id, secret: otpSecret) }
        return (writes, read.factors.leftOut)
    }

    static func reason(_ identity: SignInIdentity, holder: String?) -> String {
        let what =
            switch identity {
            case .email: "duplicate address"
            case .phone: "duplicate phone"
            case .provider(let name, _): "duplicate \(name) identity"
            }
        return holder.map { "\(what) (user \($0) has it)" } ?? what
    }
}
