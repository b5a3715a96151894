import ArgumentParser
import AuthKit
import Emulator
import Foundation
import Store

/// Options every project command shares: which template, hence which project folder.
struct ProjectOptions: ParsableArguments {
    @Option(help: "The SAM-shaped template to read.")
    var template: String = "template.json"
    @Option(
        name: .customLong("parameter-overrides"), parsing: .upToNextOption,
        help: "Template parameters, as SAM CLI takes them: Name=Value … (or ParameterKey=Name,ParameterValue=Value).")
    var parameterOverrides: [String] = []
    @Option(
        name: .customLong("store"),
        help: "The store: file (the SQLite file: GATEHOUSE_STORE, else .gatehouse/store.sqlite) or dynamodb.")
    var storeKind: ProjectStore.Kind = .file
    @Option(
        name: .customLong("dynamodb-endpoint"),
        help: "With --store dynamodb: a local endpoint (moto_server, DynamoDB Local); else the region's DynamoDB.")
    var dynamodbEndpoint: String?

    /// `--parameter-overrides` by name; `UsageFailure` for one that is neither form.
    func parameters() throws(UsageFailure) -> [String: String] {
        var parameters: [String: String] = [:]
        for entry in parameterOverrides {
            if entry.hasPrefix("ParameterKey=") {
                let parts = entry.split(separator: ",", maxSplits: 1)
                guard parts.count == 2, parts[1].hasPrefix("ParameterValue=") else {
                    throw UsageFailure("--parameter-overrides: \(entry) is not ParameterKey=Name,ParameterValue=Value")
                }
                parameters[String(parts[0].dropFirst("ParameterKey=".count))] = String(
                    parts[1].dropFirst("ParameterValue=".count))
            } else {
                let parts = entry.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                guard parts.count == 2, !parts[0].isEmpty else {
                    throw UsageFailure("--parameter-overrides: \(entry) is not Name=Value")
                }
                parameters[String(parts[0])] = String(parts[1])
            }
        }
        return parameters
    }

    /// The template as the local commands read it: the local parameters
    /// (`ServeOptions.localParameters`), then `--parameter-overrides`, which win.
    func loadTemplate() throws -> Template {
        try Template.load(path: template, parameters: ServeOptions.localParameters.merging(try parameters()) { $1 })
    }

    /// The template's folder: the project root, where `.gatehouse/` lives.
    var projectDirectory: String {
        URL(fileURLWithPath: template).standardizedFileURL.deletingLastPathComponent().path
    }

    /// The signing keys the CLI manages: `SIGNING_KEYS` / `SIGNING_KEYS_FILE` when set, else the
    /// project's `.gatehouse/signing-keys.json`.
    func signingKeyStore(environment: [String: String] = ProcessInfo.processInfo.environment) -> SigningKeyStore {
        let location =
            SigningKeyLocation.fromEnvironment(environment)
            ?? .file(path: "\(projectDirectory)/\(SigningKeyLocation.localFileName)")
        return SigningKeyStore(location: location)
    }

    /// The project's store with the template's tables: the file (`GATEHOUSE_STORE`, else
    /// `.gatehouse/store.sqlite`, the tables recorded in it so function processes can open it by
    /// path alone), or DynamoDB with `--store dynamodb`.
    func store(for template: Template) async throws -> ProjectStore {
        try await ProjectStore.open(self, template: template)
    }

    /// The store file: `GATEHOUSE_STORE`, else `.gatehouse/store.sqlite` in the project.
    var storeFile: String {
        SQLiteStore.path(environment: ProcessInfo.processInfo.environment, projectDirectory: projectDirectory)
    }

    /// Where the project's other local files go (the OTP secret, the dev provider's key): the
    /// store file's folder, whichever store is used.
    var stateDirectory: String {
        URL(fileURLWithPath: storeFile).deletingLastPathComponent().path
    }
}
