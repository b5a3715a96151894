import AuthKit

/// What an import did, row by row, and its counts. Its lines name rows, ids and reasons, never
/// an address, a number or a hash.
public struct ImportReport: Sendable {
    /// What became of one row.
    public enum Outcome: Sendable {
        case imported(User, hasPassword: Bool, leftOut: [String])
        /// A user with this id is stored already: an earlier run.
        case alreadyPresent(id: String)
        case skipped(id: String?, reason: String)
    }

    public private(set) var imported = 0
    public private(set) var withPassword = 0
    public private(set) var awaitingConfirmation = 0
    public private(set) var alreadyPresent = 0
    /// The skipped rows: number, id when it could be read, and why.
    public private(set) var skipped: [(row: Int, id: String?, reason: String)] = []
    /// Imported rows that left something out: number, id, and what.
    public private(set) var notes: [(row: Int, id: String, leftOut: [String])] = []

    public var rows: Int { imported + alreadyPresent + skipped.count }

    mutating func record(_ row: SupabaseExport.Row, outcome: Outcome) {
        switch outcome {
        case .imported(let user, let hasPassword, let leftOut):
            imported += 1
            if hasPassword { withPassword += 1 }
            if user.emailIsPending { awaitingConfirmation += 1 }
            if !leftOut.isEmpty { notes.append((row.number, user.id, leftOut)) }
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
        lines.append(
            "\(rows) rows: \(imported) imported (\(withPassword) with a bcrypt password, "
                + "\(awaitingConfirmation) awaiting email confirmation), \(alreadyPresent) already present, "
                + "\(skipped.count) skipped")
        return lines
    }
}
