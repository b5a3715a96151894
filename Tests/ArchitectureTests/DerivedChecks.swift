import Foundation

/// Every list a new function must appear in, checked against `template.json`'s functions, in one
/// repository root: the real one (`DerivedListsTests`), or a scratch copy with a throwaway
/// function added step by step (`ChecklistWalkTests`). Each check answers what is missing or
/// extra, by name; an empty answer passes.
struct DerivedChecks {
    let root: URL

    /// The template's functions, and the resource of each.
    func functions() throws -> [String: [String: Any]] {
        let resources = try json("template.json")["Resources"] as? [String: Any]
        var functions: [String: [String: Any]] = [:]
        for (name, value) in resources ?? [:] {
            guard let resource = value as? [String: Any], resource["Type"] as? String == "AWS::Serverless::Function"
            else { continue }
            functions[name] = resource
        }
        return functions
    }

    func text(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    func json(_ path: String) throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: Data(contentsOf: root.appendingPathComponent(path))) as? [String: Any]
            ?? [:]
    }

    /// Every check, by the checklist's step: what each finds wrong.
    func all() throws -> [String: [String]] {
        [
            "links table": try linksTable(), "release budget": try releaseBudgets(),
            "sample event": try sampleEvents(), "deploy guide's signers": try deployGuideSigners(),
            "docs' real functions": try realFunctionsInDocs(),
        ].filter { !$0.value.isEmpty }
    }

    /// ARCHITECTURE.md's "What each function links" table has a row for every function, and no
    /// other.
    func linksTable() throws -> [String] {
        let text = try text("ARCHITECTURE.md")
        let section = text.components(separatedBy: "## What each function links").dropFirst().first ?? ""
        let table = section.components(separatedBy: "\n\n").first { $0.contains("| function |") } ?? ""
        let named = Set(
            table.split(separator: "\n").dropFirst(2).flatMap { row in
                row.split(separator: "|").first.map {
                    $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
                } ?? []
            })
        return try difference(named, "rows")
    }

    /// `package-budgets.json` has a release budget for every function, and no other:
    /// `gatehouse package` does not check a function that has none.
    func releaseBudgets() throws -> [String] {
        let release = try json("package-budgets.json")["release"] as? [String: Any] ?? [:]
        return try difference(Set(release.keys), "budgets")
    }

    /// Every function has a sample event under `events/` or `events/sam/`: a file whose name,
    /// without hyphens, starts with the function's name (`oauth-callback.v2.json` →
    /// `OAuthCallback`, the longest that fits).
    func sampleEvents() throws -> [String] {
        let functions = try functions().keys
        let files = try ["events", "events/sam"].flatMap {
            try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent($0).path)
                .filter { $0.hasSuffix(".json") }
        }
        let covered = Set(
            files.compactMap { file in
                let name = file.lowercased().filter { $0 != "-" }
                return functions.filter { name.hasPrefix($0.lowercased()) }.max { $0.count < $1.count }
            })
        return Set(functions).subtracting(covered).sorted().map { "\($0): no sample event" }
    }

    /// The deploy guide's list of the functions that load the signing keys is the template's:
    /// those given `SIGNING_KEYS_SECRET`.
    func deployGuideSigners() throws -> [String] {
        let text = try text("docs/packaging-and-deploy.md")
        guard let start = text.range(of: "The functions that sign tokens ("),
            let end = text.range(of: ": those the template gives", range: start.upperBound..<text.endIndex)
        else { return ["docs/packaging-and-deploy.md: no list of the functions that sign tokens"] }
        let named = Set(text[start.upperBound..<end.lowerBound].matches(of: #/`([A-Za-z]+)`/#).map { String($0.1) })
        let signing = Set(
            try functions().filter { _, resource in
                let properties = resource["Properties"] as? [String: Any]
                let variables = (properties?["Environment"] as? [String: Any])?["Variables"] as? [String: Any]
                return variables?["SIGNING_KEYS_SECRET"] != nil
            }.keys)
        return signing.symmetricDifference(named).sorted().map {
            signing.contains($0) ? "\($0): signs, not in the list" : "\($0): listed, does not sign"
        }
    }

    /// Wherever a doc says which real functions a test drives ("the real `Exchange`, `Refresh`
    /// and `Logout`"), each is a function of the template.
    func realFunctionsInDocs() throws -> [String] {
        let functions = Set(try functions().keys)
        let docs =
            try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("docs").path)
            .filter { $0.hasSuffix(".md") }.map { "docs/\($0)" } + ["README.md", "ARCHITECTURE.md"]
        var unknown: [String] = []
        for path in docs.sorted() {
            let text = try text(path).replacingOccurrences(of: "\n", with: " ")
            for list in text.matches(of: #/the real ((?:`[A-Za-z]+`(?:, | and |,? and )?)+)/#) {
                let names = list.1.matches(of: #/`([A-Za-z]+)`/#).map { String($0.1) }
                unknown += names.filter { !functions.contains($0) }.map { "\(path): the real \($0) is no function" }
            }
        }
        return unknown
    }

    /// The functions `named` lacks, and the names in it of no function.
    private func difference(_ named: Set<String>, _ what: String) throws -> [String] {
        let functions = Set(try functions().keys)
        return functions.subtracting(named).sorted().map { "\($0): not in the \(what)" }
            + named.subtracting(functions).sorted().map { "\($0): \(what) of no function" }
    }
}
