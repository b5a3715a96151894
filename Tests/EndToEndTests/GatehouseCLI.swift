import Crypto
import Emulator
import Foundation
import GatehouseJSON
import LambdaRuntime

/// Runs the real `gatehouse` binary as a user would, and captures what it printed.
struct GatehouseCLI {
    struct Run {
        let status: Int32
        let stdout: Data
        let stderr: String

        var stdoutText: String { String(decoding: stdout, as: UTF8.self) }

        func json() throws -> JSONValue {
            try JSONDecoder().decode(JSONValue.self, from: stdout)
        }

        /// The `REPORT` line's fields, e.g. `["Duration": "3.22 ms", "Max Memory Used": "38 MB"]`.
        var report: [String: String]? {
            guard let line = stderr.split(separator: "\n").first(where: { $0.hasPrefix("REPORT RequestId: ") }) else {
                return nil
            }
            var fields: [String: String] = [:]
            for field in line.split(separator: "\t") {
                let parts = field.split(separator: ":", maxSplits: 1)
                if parts.count == 2 {
                    fields[String(parts[0].replacingOccurrences(of: "REPORT ", with: ""))] = parts[1]
                        .trimmingCharacters(in: .whitespaces)
                }
            }
            return fields
        }
    }

    static let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().standardizedFileURL

    /// The folder of the binaries `swift test` built: the one this test process runs from.
    static let binDirectory: URL = {
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        let folder = executable.deletingLastPathComponent()
        if FileManager.default.isExecutableFile(atPath: folder.appendingPathComponent("gatehouse").path) {
            return folder
        }
        return repositoryRoot.appendingPathComponent(".build/debug")
    }()

    static let fixtureTemplate = repositoryRoot.appendingPathComponent("Tests/Fixtures/template.json").path
    static let projectTemplate = repositoryRoot.appendingPathComponent("template.json").path

    /// The project's template with `change` made to its resources, written under the package's
    /// `.build/test-templates` (where the emulator finds the Package.swift the functions are
    /// built from); its path.
    static func projectTemplate(changing change: (inout [String: JSONValue]) throws -> Void) throws -> String {
        let template = try JSONValue(parsing: Array(Data(contentsOf: URL(fileURLWithPath: projectTemplate))))
        guard case .object(var root) = template, case .object(var resources)? = root["Resources"] else {
            throw CocoaError(.fileReadCorruptFile)
        }
        try change(&resources)
        root["Resources"] = .object(resources)
        let folder = repositoryRoot.appendingPathComponent(".build/test-templates/\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent("template.json")
        try Data(JSONValue.object(root).serialized.utf8).write(to: path)
        return path.path
    }

    /// A private folder for the signing keys and the store, so tests never touch the
    /// project's own `.gatehouse/`.
    let stateDirectory = FileManager.default.temporaryDirectory.appendingPathComponent(
        "gatehouse-e2e-\(UUID().uuidString)")
    var keysFile: String { stateDirectory.appendingPathComponent("signing-keys.json").path }
    var storeFile: String { stateDirectory.appendingPathComponent("store.sqlite").path }

    /// Runs `gatehouse` with `arguments`, through the emulator's own `ChildProcess` (waited on
    /// with `waitid` on a thread of its own, so many runs in parallel never lose a child).
    func run(_ arguments: [String], stdin: Data? = nil, environment extra: [String: String] = [:]) async throws -> Run {
        var environment = ProcessInfo.processInfo.environment
        environment["SIGNING_KEYS_FILE"] = keysFile
        environment["GATEHOUSE_STORE"] = storeFile
        environment.removeValue(forKey: "SIGNING_KEYS")
        environment.merge(extra, uniquingKeysWith: { _, new in new })

        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("gatehouse-run-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let outPath = folder.appendingPathComponent("stdout").path
        let errPath = folder.appendingPathComponent("stderr").path
        var inPath = "/dev/null"
        if let stdin {
            inPath = folder.appendingPathComponent("stdin").path
            try stdin.write(to: URL(fileURLWithPath: inPath))
        }
        let process = try ChildProcess(
            executable: Self.binDirectory.appendingPathComponent("gatehouse").path,
            arguments: arguments,
            environment: environment,
            directory: Self.repositoryRoot.path,
            input: inPath,
            output: .file(outPath),
            error: .file(errPath)
        )
        let termination = await process.terminated()
        guard case .exited(let status) = termination.reason else {
            throw GatehouseCLIError.killed(termination.lambdaDescription)
        }
        return Run(
            status: status,
            stdout: try Data(contentsOf: URL(fileURLWithPath: outPath)),
            stderr: String(decoding: try Data(contentsOf: URL(fileURLWithPath: errPath)), as: UTF8.self)
        )
    }

    /// `gatehouse invoke MisbehavingSlow` with `{"action": ...}` from the fixture template.
    /// Its 30 s timeout keeps a busy machine from turning a slow start into a failed test;
    /// `Misbehaving` is the same binary with the global 1 s, for the timeout itself.
    func misbehave(
        _ event: JSONValue, function: String = "MisbehavingSlow", envVars: String? = nil
    ) async throws
        -> Run
    {
        let eventData = try JSONEncoder().encode(event)
        var arguments = ["invoke", function, "--template", Self.fixtureTemplate, "--no-build", "--event", "-"]
        if let envVars {
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("env-\(UUID().uuidString).json")
                .path
            try Data(envVars.utf8).write(to: URL(fileURLWithPath: path))
            arguments += ["--env-vars", path]
        }
        return try await run(arguments, stdin: eventData)
    }
}

/// `gatehouse` itself died of a signal.
enum GatehouseCLIError: Error {
    case killed(String)
    case failed(String)
}

extension GatehouseCLI {
    /// Registers app `id` (name "Acme", `extra` options of `apps add`) with a fresh P-256 key
    /// for its S2S assertions; the private key's file.
    func registerApp(_ id: String, extra: [String] = []) async throws -> String {
        try FileManager.default.createDirectory(at: stateDirectory, withIntermediateDirectories: true)
        let key = P256.Signing.PrivateKey()
        let privateFile = stateDirectory.appendingPathComponent("\(id)-private.pem")
        let publicFile = stateDirectory.appendingPathComponent("\(id)-public.pem")
        try Data(key.pemRepresentation.utf8).write(to: privateFile)
        try Data(key.publicKey.pemRepresentation.utf8).write(to: publicFile)
        let add = try await run(
            ["apps", "add", "--id", id, "--name", "Acme", "--public-key", publicFile.path] + extra)
        guard add.status == 0 else { throw GatehouseCLIError.failed("apps add: \(add.stderr)") }
        return privateFile.path
    }
}
