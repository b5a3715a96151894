import ArgumentParser
import AuthKit
import Emulator
import Foundation
import Store

/// Options every project command shares: which template, hence which project folder.
struct ProjectOptions: ParsableArguments {
    @Option(help: "The SAM-shaped template to read.")
    var template: String = "template.json"

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

    /// The project's store (`GATEHOUSE_STORE`, else `.gatehouse/store.sqlite`), opened with the
    /// template's tables recorded in it so function processes can open it by path alone.
    func store(for template: Template) async throws -> SQLiteStore {
        let path = SQLiteStore.path(
            environment: ProcessInfo.processInfo.environment, projectDirectory: projectDirectory)
        let store = try SQLiteStore(path: path, tables: template.tables)
        // A fresh local store has the demo app, so the flow works out of the box.
        if template.tables.contains(where: { $0.name == AppRegistry.table }) {
            try await AppRegistry(store: store).ensureDemoApp()
        }
        return store
    }
}
