import Foundation
import GatehouseJSON
import Testing

/// Every function has sample events (`events/`, `events/sam/`), and each one is answered by its
/// function through `gatehouse invoke`, the real binary: an HTTP answer of the function's own
/// (below 500), or an authorizer's verdict. The functions are read from `template.json`, so a
/// new function without an event fails here. One at a time: 55 processes at once would slow
/// the rest of the suite's timed tests.
@Suite(.serialized)
struct SampleEventTests {
    let cli = GatehouseCLI()

    /// The template's functions.
    static func functions() throws -> [String] {
        let url = GatehouseCLI.repositoryRoot.appendingPathComponent("template.json")
        let template = try JSONValue(parsing: Array(try Data(contentsOf: url)))
        return (template["Resources"]?.objectValue ?? [:]).compactMap { name, resource in
            resource["Type"] == "AWS::Serverless::Function" ? name : nil
        }.sorted()
    }

    /// The event files under `events/` (and `events/sam/`), relative to the repository.
    static func eventFiles() throws -> [String] {
        let root = GatehouseCLI.repositoryRoot
        return try ["events", "events/sam"].flatMap { folder in
            try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent(folder).path)
                .filter { $0.hasSuffix(".json") }.map { "\(folder)/\($0)" }
        }.sorted()
    }

    /// The function an event file is for: the one whose name, lower-cased, is the longest
    /// start of the file's name without its hyphens (`oauth-callback.v2.json` → OAuthCallback).
    static func function(of file: String, among functions: [String]) -> String? {
        let name = (file.split(separator: "/").last ?? "").lowercased().filter { $0 != "-" }
        return functions.filter { name.hasPrefix($0.lowercased()) }.max { $0.count < $1.count }
    }

    @Test(arguments: try eventFiles())
    func eachSampleEventIsAnsweredByItsFunction(_ file: String) async throws {
        let function = try #require(Self.function(of: file, among: try Self.functions()), "\(file)")
        let path = GatehouseCLI.repositoryRoot.appendingPathComponent(file).path
        let run = try await cli.run(["invoke", function, "--no-build", "--event", path])
        let answer = try run.json()
        if function.hasSuffix("Authorizer") {
            // A verdict, or REST's way to say 401: the function error `Unauthorized`.
            let verdict = answer["isAuthorized"] != nil || answer["policyDocument"] != nil
            #expect(verdict || answer["errorType"] == "Unauthorized", "\(file): \(answer)")
        } else {
            #expect(run.status == 0, "\(file): \(run.stderr)")
            let status = try #require(answer["statusCode"]?.numberValue, "\(file): \(answer)")
            #expect((200..<500).contains(Int(status)), "\(file): \(answer)")
        }
    }
}
