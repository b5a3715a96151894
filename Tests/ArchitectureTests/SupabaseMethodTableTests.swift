import Foundation
import Testing

/// docs/supabase.md's table of every supabase-swift method says how many behave as Supabase's,
/// differ, are off, are not built or are local: the counts in its text are the table's, so a row
/// that changes status cannot leave them stale.
struct SupabaseMethodTableTests {
    @Test func theCountsAreTheTables() throws {
        let text = try String(
            contentsOf: ModuleGraphTests.root.appendingPathComponent("docs/supabase.md"), encoding: .utf8)
        let section = text.components(separatedBy: "## Every supabase-swift method").dropFirst().first ?? ""
        let table = section.components(separatedBy: "**Not supported**").first ?? ""
        var counted: [String: Int] = [:]
        for row in table.split(separator: "\n") where row.hasPrefix("| `") {
            // An escaped `\|` inside a cell is no column.
            let cells = row.replacingOccurrences(of: "\\|", with: "¦").split(
                separator: "|", omittingEmptySubsequences: false)
            guard cells.count > 3 else { continue }
            let status = cells[3].trimmingCharacters(in: .whitespaces)
            let kind = ["as Supabase", "differs", "off", "not built", "local"].first { status.hasPrefix($0) }
            counted[kind ?? "unknown: \(status)", default: 0] += 1
        }
        let flat = text.replacingOccurrences(of: "\n", with: " ")
        let said = try #require(
            flat.firstMatch(
                of: #/Counts: (\d+) as Supabase, (\d+) differ, (\d+) off, (\d+) not built .*?, (\d+) local\./#))
        let stated = [
            "as Supabase": Int(said.1), "differs": Int(said.2), "off": Int(said.3), "not built": Int(said.4),
            "local": Int(said.5),
        ]
        // A status no row has any more is stated as 0.
        #expect(counted == stated.compactMapValues { $0 }.filter { $0.value > 0 })
        #expect(counted.values.reduce(0, +) > 90)
    }
}
