import Foundation
import Testing

@testable import Packaging

/// A zip over its budget is named with how far over; one within it, or without a budget, is not.
struct SizeBudgetsTests {
    @Test func aZipOverItsBudgetIsAViolation() throws {
        let budgets = SizeBudgets(bytes: ["release": ["Jwks": 7_500_000]])
        let over = try #require(budgets.violation(function: "Jwks", configuration: "release", zipBytes: 7_600_000))
        #expect(over.hasPrefix("Jwks.zip is 7600000 bytes, 100000 over its release budget of 7500000"))
        #expect(budgets.violation(function: "Jwks", configuration: "release", zipBytes: 7_500_000) == nil)
        #expect(budgets.violation(function: "Jwks", configuration: "debug", zipBytes: 99_000_000) == nil)
        #expect(budgets.violation(function: "Other", configuration: "release", zipBytes: 99_000_000) == nil)
    }

    @Test func theProjectsBudgetsReadAndABrokenFileIsRefused() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let project = try SizeBudgets(path: root.appendingPathComponent("package-budgets.json").path)
        #expect(project.bytes["debug"]?["Jwks"] != nil)
        #expect(try SizeBudgets(path: "/nonexistent/package-budgets.json") == SizeBudgets(bytes: [:]))
        let broken = FileManager.default.temporaryDirectory.appendingPathComponent("budgets-\(UUID().uuidString)")
        try Data(#"{"release": {"Jwks": "big"}}"#.utf8).write(to: broken)
        defer { try? FileManager.default.removeItem(at: broken) }
        #expect(throws: SizeBudgetsError.malformed(broken.path)) { try SizeBudgets(path: broken.path) }
    }
}
