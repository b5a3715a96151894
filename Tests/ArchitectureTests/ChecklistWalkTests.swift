import Foundation
import Testing

/// ARCHITECTURE.md's "Adding an endpoint", walked on a scratch copy of the repository's checked
/// files: a throwaway function added to the template alone is named by every derived check
/// whose list lacks it, and after the checklist's steps, none finds anything.
struct ChecklistWalkTests {
    /// A scratch root holding copies of what the derived checks read.
    static func scratch() throws -> URL {
        let root = DerivedListsTests.root
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("walk-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        for path in ["template.json", "package-budgets.json", "ARCHITECTURE.md", "README.md", "docs", "events"] {
            try FileManager.default.copyItem(
                at: root.appendingPathComponent(path), to: scratch.appendingPathComponent(path))
        }
        return scratch
    }

    /// Rewrites the scratch file at `path` with `change`.
    static func edit(_ root: URL, _ path: String, _ change: (String) throws -> String) throws {
        let url = root.appendingPathComponent(path)
        try Data(try change(String(contentsOf: url, encoding: .utf8)).utf8).write(to: url)
    }

    /// The template with a function `Throwaway` that signs tokens, on a route with a path
    /// parameter, made from SupabaseSettings' resource.
    static func addThrowaway(to root: URL) throws {
        let url = root.appendingPathComponent("template.json")
        var template = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any] ?? [:]
        var resources = template["Resources"] as? [String: Any] ?? [:]
        var function = try #require(resources["SupabaseSettings"] as? [String: Any])
        var properties = function["Properties"] as? [String: Any] ?? [:]
        properties["CodeUri"] = "Functions/Throwaway"
        properties["Environment"] = ["Variables": ["SIGNING_KEYS_SECRET": ["Ref": "SigningKeysSecret"]]]
        properties["Events"] = [
            "Api": ["Type": "HttpApi", "Properties": ["Method": "GET", "Path": "/throwaway/{id}"]]
        ]
        function["Properties"] = properties
        resources["Throwaway"] = function
        template["Resources"] = resources
        try JSONSerialization.data(withJSONObject: template).write(to: url)
    }

    @Test func aThrowawayFunctionFailsEachListUntilTheChecklistIsWalked() throws {
        let root = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: root) }
        let checks = DerivedChecks(root: root)
        #expect(try checks.all() == [:], "the copy starts clean")
        try Self.addThrowaway(to: root)
        let found = try checks.all()
        #expect(
            found == [
                "links table": ["Throwaway: not in the rows"], "release budget": ["Throwaway: not in the budgets"],
                "sample event": ["Throwaway: no sample event"],
                "deploy guide's signers": ["Throwaway: signs, not in the list"],
            ])

        // Step 3: its row in "What each function links", and its name in the deploy guide.
        try Self.edit(root, "ARCHITECTURE.md") { text in
            let header = try #require(text.range(of: "| function |"))
            let separator = try #require(text.range(of: "\n", range: header.upperBound..<text.endIndex))
            let firstRow = try #require(text.range(of: "\n", range: separator.upperBound..<text.endIndex))
            return text.replacingCharacters(
                in: firstRow.upperBound..<firstRow.upperBound, with: "| Throwaway | AuthKit | a throwaway |\n")
        }
        try Self.edit(root, "docs/packaging-and-deploy.md") {
            $0.replacingOccurrences(
                of: "The functions that sign tokens (", with: "The functions that sign tokens (`Throwaway`, ")
        }
        // Step 4: a sample event, with the path parameter filled.
        try Data(#"{"rawPath": "/throwaway/REPLACE-WITH-ID", "pathParameters": {"id": "REPLACE-WITH-ID"}}"#.utf8).write(
            to: root.appendingPathComponent("events/sam/throwaway.v2.json"))
        #expect(try checks.all().keys.sorted() == ["release budget"])
        // Step 6: its zip budget.
        try Self.edit(root, "package-budgets.json") {
            $0.replacingOccurrences(of: #""release": {"#, with: #""release": {"Throwaway": 10000000, "#)
        }
        #expect(try checks.all() == [:])
    }
}
