import Emulator
import Foundation
import GatehouseJSON
import Packaging
import TestServers
import Testing

/// `gatehouse package` on the project's Jwks function in debug, then the zip run as it is.
///
/// `swift test` holds SwiftPM's lock on .build, so the test cannot build: it packages the
/// binary as built (`--no-build`). `bash .ci/run` links it for packaging first
/// (`gatehouse package Jwks --configuration debug`); after a plain `swift build` the binary
/// links the Swift runtime dynamically and this test says to do that.
struct PackageTests {
    let cli = GatehouseCLI()

    @Test func aPackagedFunctionIsAReproducibleZipThatRunsAsItIs() async throws {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("dist-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: output) }
        let package = ["package", "Jwks", "--configuration", "debug", "--no-build", "--output", output.path]
        let first = try await cli.run(package)
        try #require(
            first.status == 0,
            "\(first.stderr)\nLink Jwks for packaging first: swift run gatehouse package Jwks --configuration debug")
        #expect(first.stderr.contains("Jwks: "))
        #expect(first.stderr.contains("| Jwks | "))
        let zipPath = output.appendingPathComponent("Jwks.zip").path
        let bytes = try Data(contentsOf: URL(fileURLWithPath: zipPath))

        // Layout and modes, as Info-ZIP reads them: bootstrap at the root, executable.
        let listing = try await run("/usr/bin/zipinfo", [zipPath])
        let names = listing.split(separator: "\n").filter { $0.hasPrefix("-") }
        #expect(names.contains { $0.hasPrefix("-rwxr-xr-x") && $0.hasSuffix(" bootstrap") })
        #expect(names.allSatisfy { $0.hasSuffix(" bootstrap") || $0.contains(" lib/") })
        #expect(bytes.count < 50 * 1024 * 1024)

        // The same binary gives the same bytes.
        let second = try await cli.run(package)
        #expect(second.status == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: zipPath)) == bytes)

        // The packaged template points at the zip, for provided.al2023.
        let packaged = try JSONValue(
            parsing: Array(try Data(contentsOf: output.appendingPathComponent("template.json"))))
        let jwks = try #require(packaged["Resources"]?["Jwks"]?["Properties"])
        #expect(jwks["CodeUri"] == "Jwks.zip")
        #expect(jwks["Runtime"] == "provided.al2023")
        #expect(packaged["Resources"]?["Jwks"]?["Metadata"] == nil, "a zip has nothing for sam build to build")
        #expect(packaged["Resources"]?["Exchange"]?["Properties"]?["CodeUri"] == "Functions/Exchange")
        #expect(second.stderr.contains("warning: \(output.path)/template.json: no zip yet for"))
        // Everything else is the project template's, so what DeployedTemplateTests holds the
        // project template to (stage, retained tables, policies, logging, alarm, outputs) holds
        // for the packaged one: only code, runtime, architecture and build metadata differ.
        let project = try JSONValue(
            parsing: Array(try Data(contentsOf: URL(fileURLWithPath: GatehouseCLI.projectTemplate))))
        for key in ["Parameters", "Conditions", "Outputs", "Transform", "AWSTemplateFormatVersion"] {
            #expect(packaged[key] == project[key], "\(key)")
        }
        func deployable(_ resource: JSONValue?) -> JSONValue? {
            guard case .object(var members)? = resource else { return resource }
            members["Metadata"] = nil
            if case .object(var properties)? = members["Properties"] {
                for key in ["CodeUri", "Runtime", "Architectures"] { properties[key] = nil }
                members["Properties"] = .object(properties)
            }
            return .object(members)
        }
        let resources = try #require(project["Resources"]?.objectValue)
        #expect(packaged["Resources"]?.objectValue?.count == resources.count)
        for (name, resource) in resources {
            #expect(deployable(packaged["Resources"]?[name]) == deployable(resource), "\(name)")
        }
        if let lint = PythonTools.tool("cfn-lint") ?? Self.which("cfn-lint") {
            let linted = try await runStatus(lint, [output.appendingPathComponent("template.json").path])
            #expect(linted.status == 0, "\(linted.output)")
        }

        // The zip's own bootstrap answers through invoke --packaged.
        let invoked = try await cli.run(["invoke", "Jwks", "--packaged", "--output", output.path])
        #expect(invoked.status == 0, "\(invoked.stderr)")
        let answer = try invoked.json()
        #expect(answer["statusCode"] == 200)
        let keys = try JSONValue(parsing: Array(try #require(answer["body"]?.stringValue).utf8))
        #expect(keys["keys"]?.arrayValue?.isEmpty == false)
        let bootstrap = output.appendingPathComponent(".unzipped/Jwks/bootstrap").path
        #expect(FileManager.default.isExecutableFile(atPath: bootstrap))
        #expect(try !ELFFile(path: bootstrap).hasUnwindTables, "packaged builds link without unwind tables")
    }

    /// `sam build` (SAM CLI's own workflow, offline) builds a function through the Makefile
    /// that template.json's `Metadata` names: its `bootstrap` under the build folder is the one
    /// `gatehouse package` zips, byte for byte, and SAM's built template points at it.
    @Test func samBuildMakesTheBootstrapThatPackageZips() async throws {
        guard let sam = PythonTools.tool("sam") else {
            Issue.record("SAM CLI is not in .build/venv: run bash .ci/run once")
            return
        }
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("sam-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: work) }
        let cliPath = GatehouseCLI.binDirectory.appendingPathComponent("gatehouse").path
        let built = try await runStatus(
            "/usr/bin/env",
            [
                "-C", GatehouseCLI.repositoryRoot.path, "SAM_CLI_TELEMETRY=0", "GATEHOUSE=\(cliPath)",
                "PACKAGE_FLAGS=--configuration debug --no-build", "PACKAGE_DIR=\(work.path)/package",
                sam, "build", "Jwks", "--template", GatehouseCLI.projectTemplate, "--build-dir",
                work.appendingPathComponent("build").path,
            ])
        try #require(built.status == 0, "\(built.output)")
        #expect(built.output.contains("Build Succeeded"))
        let bootstrap = try Data(contentsOf: work.appendingPathComponent("build/Jwks/bootstrap"))
        // What `gatehouse package` makes on its own, apart from the Makefile's run.
        let own = work.appendingPathComponent("own")
        let packaged = try await cli.run([
            "package", "Jwks", "--configuration", "debug", "--no-build", "--output", own.path,
        ])
        #expect(packaged.status == 0, "\(packaged.stderr)")
        let unpacked = work.appendingPathComponent("unpacked")
        _ = try await run("/usr/bin/unzip", ["-q", own.appendingPathComponent("Jwks.zip").path, "-d", unpacked.path])
        #expect(bootstrap.count > 1_000_000)
        #expect(bootstrap == (try Data(contentsOf: unpacked.appendingPathComponent("bootstrap"))))
        #expect(FileManager.default.isExecutableFile(atPath: work.appendingPathComponent("build/Jwks/bootstrap").path))
        let template = try String(contentsOf: work.appendingPathComponent("build/template.yaml"), encoding: .utf8)
        #expect(template.contains("CodeUri: Jwks"))
    }

    @Test func withoutAZipPackagedRunsSayWhatToDo() async throws {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("empty-\(UUID().uuidString)")
        let invoked = try await cli.run(["invoke", "Jwks", "--packaged", "--output", output.path])
        #expect(invoked.status == 2)
        #expect(
            invoked.stderr.contains(
                "no package for Jwks at \(output.path)/Jwks.zip: run `gatehouse package Jwks` first"))
        let badTarget = try await cli.run(["package", "Jwks", "--target", "al1", "--no-build"])
        #expect(badTarget.status == 2)
        #expect(badTarget.stderr.contains("--target must be al2023 or al2"))
    }

    static func which(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        return path.split(separator: ":").map { "\($0)/\(name)" }.first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
    }

    func run(_ tool: String, _ arguments: [String]) async throws -> String {
        let result = try await runStatus(tool, arguments)
        #expect(result.status == 0, "\(tool): \(result.output)")
        return result.output
    }

    /// Runs `tool`, its standard output then its standard error as one text. Awaited rather
    /// than waited for: cfn-lint takes seconds, and a pool thread blocked that long starves the
    /// servers other tests run in this process.
    func runStatus(_ tool: String, _ arguments: [String]) async throws -> (status: Int32, output: String) {
        let run = try await ChildProcess.capture(tool, arguments)
        let text = run.standardOutput + run.standardError
        guard case .exited(let status) = run.termination.reason else {
            return (-1, run.termination.lambdaDescription + text)
        }
        return (status, text)
    }
}
