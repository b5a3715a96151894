import AuthKit
import Emulator
import Foundation
import JOSE
import Packaging
import Store

/// What running the project's functions locally needs, shared by `invoke` and `start-api`:
/// the variables every function gets (signing keys, store) and each function's binary.
struct LocalFunctions {
    let project: ProjectOptions
    let template: Template
    /// Which SwiftPM build of the functions runs: `debug` (the default) or `release`.
    var configuration = "debug"
    /// With `--packaged`, the folder of the zips: functions run from them, unzipped.
    var packaged: String?

    /// `SIGNING_KEYS_FILE` (the project's key file, created on first use), the variables that
    /// open `store` (`GATEHOUSE_STORE` for the file, with the template's tables recorded in it;
    /// the tables' schemas and endpoint for DynamoDB) and `OTP_SECRET_FILE`.
    func defaults(store: ProjectStore) throws -> [String: String] {
        var defaults: [String: String] = [:]
        let keyStore = project.signingKeyStore()
        if case .file(let path) = keyStore.location {
            let (keys, created) = try keyStore.loadOrCreate()
            if created {
                Console.error("Created signing keys at \(path) (current kid \(keys.current.kid))")
            }
            defaults["SIGNING_KEYS_FILE"] = path
        }
        defaults.merge(store.functionEnvironment) { $1 }
        // The phone codes' HMAC key for local runs, beside the store, made by the first function
        // that needs it.
        defaults["OTP_SECRET_FILE"] =
            URL(fileURLWithPath: project.stateDirectory)
            .appendingPathComponent("otp-secret").path
        return defaults
    }

    /// With `--packaged`, the function's zip unzipped; otherwise a `bootstrap` in `CodeUri` runs
    /// as it is (a custom runtime, any language), or the Swift product named after `CodeUri` is
    /// built (when `build`) and run.
    func executable(for function: FunctionDefinition, build: Bool) throws -> String {
        if let packaged { return try PackagedFunction.unpack(function.name, output: packaged) }
        let bootstrap = function.bootstrapPath(templateDirectory: template.directory)
        if FileManager.default.isExecutableFile(atPath: bootstrap) {
            return bootstrap
        }
        guard let packageRoot = SwiftBuilder.packageRoot(containing: template.directory) else {
            throw UsageFailure(
                "\(function.name): no executable at \(bootstrap), and no Package.swift at or above \(template.directory) to build it from"
            )
        }
        let builder = SwiftBuilder(packageDirectory: packageRoot, configuration: configuration)
        if build {
            try builder.build(product: function.productName)
        }
        let binary = builder.binaryPath(product: function.productName)
        guard FileManager.default.isExecutableFile(atPath: binary) else {
            throw UsageFailure(
                "no binary for \(function.name) at \(binary): run `swift build -c \(configuration) --product \(function.productName)`, or drop --no-build"
            )
        }
        return binary
    }
}
