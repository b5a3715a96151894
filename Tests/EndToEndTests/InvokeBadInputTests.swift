import Foundation
import GatehouseJSON
import Testing

/// Bad input gets one clear line on standard error, exit status 2, and runs nothing.
struct InvokeBadInputTests {
    let cli = GatehouseCLI()

    func expectUsageError(_ run: GatehouseCLI.Run, _ message: String, sourceLocation: SourceLocation = #_sourceLocation)
    {
        #expect(run.status == 2, sourceLocation: sourceLocation)
        #expect(run.stdout.isEmpty, sourceLocation: sourceLocation)
        let lines = run.stderr.split(separator: "\n")
        #expect(lines.count == 1, "one line, not a stack trace: \(run.stderr)", sourceLocation: sourceLocation)
        #expect(run.stderr.hasPrefix("error: \(message)"), "got: \(run.stderr)", sourceLocation: sourceLocation)
        #expect(!run.stderr.contains("START"), sourceLocation: sourceLocation)
    }

    @Test func aMalformedEventFile() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("bad-\(UUID().uuidString).json").path
        try Data(#"{"version": "2.0", "#.utf8).write(to: URL(fileURLWithPath: path))
        expectUsageError(
            try await cli.run(["invoke", "Jwks", "--event", path, "--no-build"]), "\(path) is not valid JSON")
    }

    @Test func aMalformedEventOnStandardInput() async throws {
        expectUsageError(
            try await cli.run(["invoke", "Jwks", "--event", "-", "--no-build"], stdin: Data("nope".utf8)),
            "the event on standard input is not valid JSON"
        )
    }

    @Test func aMissingEventFile() async throws {
        expectUsageError(
            try await cli.run(["invoke", "Jwks", "--event", "/nonexistent/event.json", "--no-build"]),
            "cannot read the event file /nonexistent/event.json")
    }

    @Test func anEventOverTheLimit() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("huge-\(UUID().uuidString).json").path
        try Data(("\"" + String(repeating: "x", count: 6_291_556) + "\"").utf8).write(to: URL(fileURLWithPath: path))
        expectUsageError(
            try await cli.run(["invoke", "Jwks", "--event", path, "--no-build"]),
            "\(path) is 6291558 bytes: Lambda accepts at most 6291556")
    }

    @Test func anUnknownFunctionListsTheValidNames() async throws {
        // Every function of the template, in order: the list is the template's, not typed here.
        let template = try JSONValue(
            parsing: Array(try Data(contentsOf: URL(fileURLWithPath: GatehouseCLI.projectTemplate))))
        let functions = (template["Resources"]?.objectValue ?? [:]).filter {
            $0.value["Type"] == "AWS::Serverless::Function"
        }.keys.sorted()
        #expect(functions.count > 20)
        expectUsageError(
            try await cli.run(["invoke", "Nope", "--no-build"]),
            "no function named Nope in the template; functions: \(functions.joined(separator: ", "))\n")
    }

    @Test func aBrokenTemplate() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("template-\(UUID().uuidString).json")
            .path
        try Data(#"{"Resources": {"Jwks": {"Type": "AWS::Serverless::Function", "Properties": {"CodeUri": 7}}}}"#.utf8)
            .write(to: URL(fileURLWithPath: path))
        expectUsageError(
            try await cli.run(["invoke", "Jwks", "--template", path, "--no-build"]),
            "\(path): Resources.Jwks.Properties.CodeUri: must be a string")
        expectUsageError(
            try await cli.run(["invoke", "Jwks", "--template", "/nonexistent/template.json", "--no-build"]),
            "cannot read /nonexistent/template.json")
    }

    @Test func aBrokenEnvVarsFile() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("env-\(UUID().uuidString).json").path
        try Data("[1]".utf8).write(to: URL(fileURLWithPath: path))
        expectUsageError(
            try await cli.run(["invoke", "Jwks", "--env-vars", path, "--no-build"]),
            "\(path): the top level: must be an object of objects")
    }

    @Test func aBrokenSigningKeyFileIsNamedWithoutItsContents() async throws {
        try FileManager.default.createDirectory(
            atPath: (cli.keysFile as NSString).deletingLastPathComponent, withIntermediateDirectories: true
        )
        try Data(#"{"keys":[{"kty":"RSA","d":"c2VjcmV0LW1hdGVyaWFs"}]}"#.utf8).write(
            to: URL(fileURLWithPath: cli.keysFile))
        let run = try await cli.run(["invoke", "Jwks", "--no-build"])
        expectUsageError(run, "the signing keys in \(cli.keysFile) are invalid")
        #expect(!run.stderr.contains("c2VjcmV0LW1hdGVyaWFs"))
    }

    @Test func aKidThatBeginsWithADashIsAKidNotAnOption() async throws {
        #expect(try await cli.run(["keys", "generate"]).status == 0)
        // One kid in 64 begins with "-": it must reach the key set, not the option parser.
        expectUsageError(
            try await cli.run(["keys", "retire", "-Abc_123"]),
            "no key with kid -Abc_123 in the signing key set"
        )
    }

    @Test func theParsersOwnUsageErrorsExitTwoToo() async throws {
        for arguments in [["invoke"], ["--bogus"], ["keys", "retire"], ["invoke", "Jwks", "--event"]] {
            let run = try await cli.run(arguments)
            #expect(run.status == 2, "\(arguments): \(run.stderr)")
            #expect(run.stderr.hasPrefix("Error: "), "\(arguments): \(run.stderr)")
        }
    }
}
