import Foundation
import Testing

/// The lists a function must appear in (ARCHITECTURE.md's links table, the release budgets, the
/// sample events, the deploy guide's signers, the docs' "the real ..." lists) are checked
/// against `template.json` (`DerivedChecks`), so a new function, or one whose role changes,
/// fails here by name until each says so.
struct DerivedListsTests {
    static let root = ModuleGraphTests.root
    let checks = DerivedChecks(root: Self.root)

    @Test func everyFunctionHasARowInTheLinksTable() throws {
        #expect(try checks.linksTable() == [])
    }

    /// Every function has a release budget, and every release budget is a function's:
    /// `gatehouse package` does not check a function that has none.
    @Test func everyFunctionHasAReleaseBudget() throws {
        #expect(try checks.releaseBudgets() == [])
        #expect(try checks.functions().count > 20)
    }

    @Test func everyFunctionHasASampleEvent() throws {
        #expect(try checks.sampleEvents() == [])
    }

    @Test func theDeployGuideNamesEveryFunctionThatSigns() throws {
        #expect(try checks.deployGuideSigners() == [])
    }

    @Test func everyFunctionADocCallsRealIsInTheTemplate() throws {
        #expect(try checks.realFunctionsInDocs() == [])
        #expect(try checks.text("docs/client-library.md").contains("the real `Exchange`"))
    }
}
