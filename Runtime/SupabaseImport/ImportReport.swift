import AuthKit

/// What an import did, row by row, and its counts. Its lines name rows, ids and reasons, never
/// an address, a number or a hash.
public struct ImportReport: Sendable {
    /// What became of one row.
    public enum Outcome: Sendable {
        /// `factors` TOTP factors came with it; `factorsLeftOut` says why each other did not;
        /// `scrypt`: its password is Gatehouse's own hash (from `users export`), not bcrypt.
        case imported(
            User, hasPassword: Bool, leftOut: [String], factors: Int = 0, factorsLeftOut: [String] = [],
            scrypt: Bool = false)
        /// A user with this id is stored already: an earlier run.
        case alreadyPresent(id: String)
        case skipped(id: String?, reason: String)
    }

    public private(set) var imported = 0
    public private(set) var withPassword = 0
    /// Imported with Gatehouse's own scrypt hash (an export of another Gatehouse), not counted in `withPassword`.
    public private(set) var withScrypt = 0
    public private(set) var awaitingConfirmation = 0
    public private(set) var alreadyPresent = 0
    /// TOTP factors imported with their users.
    public private(set) var factorsImported = 0
    /// Factors of imported users left out, by reason.
    public private(set) var factorsLeftOut: [String: Int] = [:]
    /// The skipped rows: number, id when it could be read, and why.
    public private(set) var skipped: [(row: Int, id: String?, reason: String)] = []
    /// Imported rows that left something out: number, id, and what.
    public private(set) var notes: [(row: Int, id: String, leftOut: [String])] = []

    public var rows: Int { imported + alreadyPresent + skipped.count }

    mutating func record(_ row: SupabaseExport.Row, outcome: Outcome) {
        switch outcome {
        case .imported(let user, let hasPassword, let leftOut, let factors, let factorsLeftOut, let scrypt):
            imported += 1
            if hasPassword && scrypt { withScrypt += 1 } else if hasPassword { withPassword += 1 }
            if user.emailIsPending { awaitingConfirmation += 1 }
            factorsImported += factors
            for reason in factorsLeftOut { self.factorsLeftOut[reason, default: 0] += 1 }
            let without = leftOut + factorsLeftOut
            if !without.isEmpty { notes.append((row.number, user.id, without)) }
        case .alreadyPresent:
            alreadyPresent += 1
        case .skipped(let id, let reason):
            skipped.append((row.number, id, reason))
        }
    }

    /// The report as lines: each skipped row, each row imported without something, then the counts.
    public var lines: [String] {
        var lines = skipped.map { "row \($0.row)\($0.id.map { " (\($0))" } ?? ""): skipped: \($0.reason)" }
        lines += notes.map { "row \($0.row) (\($0.id)): imported without \($0.leftOut.joined(separator: ", "))" }
        if factorsImported > 0 || !factorsLeftOut.isEmpty {
            let reasons = factorsLeftOut.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }
            lines.append(
                "factors: \(factorsImported) TOTP imported, \(factorsLeftOut.values.reduce(0, +)) left out"
                    + (reasons.isEmpty ? "" : " (\(reasons.joined(separator: "; ")))"))
        }
        lines.append(
            "\(rows) rows: \(imported) imported (\(withPassword) with a bcrypt password, "
                + (withScrypt > 0 ? "\(withScrypt) with a Gatehouse scrypt password, " : "")
                + "\(awaitingConfirmation) awaiting email confirmation), \(alreadyPresent) already present, "
                + "\(skipped.count) skipped")
        return lines
    }
}
