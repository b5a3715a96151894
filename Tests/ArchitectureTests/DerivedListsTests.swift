import Foundation
import Testing

/// The lists of functions written in the docs are checked against `template.json`, so a new
/// function, or one whose role changes, fails here by name until the docs say so.
struct DerivedListsTests {
    static let root = ModuleGraphTests.root

    /// The template's functions, and the resources of each.
    static func functions() throws -> [String: [String: Any]] {
        let data = try Data(contentsOf: root.appendingPathComponent("template.json"))
        let resources = (try JSONSerialization.jsonObject(with: data) as? [String: Any])?["Resources"] as? [String: Any]
        var functions: [String: [String: Any]] = [:]
        for (name, value) in resources ?? [:] {
            guard let resource = value as? [String: Any], resource["Type"] as? String == "AWS::Serverless::Function"
            else { continue }
            functions[name] = resource
        }
        return functions
    }

    static func text(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    /// ARCHITECTURE.md's "What each function links" table has a row for every function.
    @Test func everyFunctionHasARowInTheLinksTable() throws {
        let text = try Self.text("ARCHITECTURE.md")
        let section = try #require(text.components(separatedBy: "## What each function links").dropFirst().first)
        let table = section.components(separatedBy: "\n\n").first { $0.contains("| function |") } ?? ""
        let named = Set(
            table.split(separator: "\n").dropFirst(2).flatMap { row in
                row.split(separator: "|").first.map {
                    $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
                } ?? []
            })
        let functions = Set(try Self.functions().keys)
        #expect(functions.subtracting(named).sorted() == [], "functions without a row")
        #expect(named.subtracting(functions).sorted() == [], "rows of no function")
    }

    /// The deploy guide's list of the functions that load the signing keys is the template's:
    /// those given `SIGNING_KEYS_SECRET`.
    @Test func theDeployGuideNamesEveryFunctionThatSigns() throws {
        let text = try Self.text("docs/packaging-and-deploy.md")
        let start = try #require(text.range(of: "The functions that sign tokens ("))
        let end = try #require(text.range(of: ": those the template gives", range: start.upperBound..<text.endIndex))
        let named = Set(
            text[start.upperBound..<end.lowerBound].matches(of: #/`([A-Za-z]+)`/#).map { String($0.1) })
        let signing = try Self.functions().filter { _, resource in
            let properties = resource["Properties"] as? [String: Any]
            let variables = (properties?["Environment"] as? [String: Any])?["Variables"] as? [String: Any]
            return variables?["SIGNING_KEYS_SECRET"] != nil
        }.keys
        #expect(named == Set(signing), "the guide names \(named.sorted()), the template \(signing.sorted())")
    }
}
