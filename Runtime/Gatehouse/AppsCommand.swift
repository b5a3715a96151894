import ArgumentParser
import AuthKit
import Foundation
import JOSE
import Store

/// `gatehouse apps`: the apps that sign users in with Gatehouse, in the local store.
struct AppsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "apps",
        abstract: "Register, change, list and remove apps (a demo app is there from the start).",
        subcommands: [Add.self, Update.self, List.self, Remove.self, Key.self]
    )

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Register an app.")
        @Option(help: "Lower-case letters, digits, - or _; the aud of its access tokens.") var id: String
        @Option(help: "A human name.") var name: String
        @Option(name: .customLong("base-url"), help: "The web app's origin, e.g. https://example.com.")
        var baseURL: String?
        @Option(name: .customLong("mobile-scheme"), help: "The mobile app's URL scheme.") var mobileScheme: String?
        @Option(
            name: .customLong("public-key"),
            help: "A file with the public key its backend signs S2S calls with (PEM or JWK); repeatable.")
        var publicKeys: [String] = []
        @Option(
            help: """
                Where its auth codes may be redeemed: public (POST /auth/exchange), backend \
                (POST /api/v1/auth/verify, S2S-signed), or both, comma-separated.
                """)
        var redeem: String = "public,backend"
        @Flag(
            name: .customLong("apple-nonce-optional"),
            help: """
                Let its native Sign in with Apple go without a nonce (for a client that cannot \
                send one); by default a sign-in without one is refused.
                """)
        var appleNonceOptional = false
        @OptionGroup var native: NativeAppOptions
        @OptionGroup var project: ProjectOptions

        func run() async throws {
            try await UsageFailure.reporting {
                var keys: [JWK] = []
                for path in publicKeys {
                    guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
                        throw UsageFailure("cannot read the public key file \(path)")
                    }
                    keys.append(try AppPublicKey.jwk(from: text))
                }
                var routes = Set<CodeRedemption>()
                for name in redeem.split(separator: ",") {
                    guard let route = CodeRedemption(rawValue: name.trimmingCharacters(in: .whitespaces)) else {
                        throw UsageFailure("--redeem takes public, backend or both, not \(name)")
                    }
                    routes.insert(route)
                }
                var app = try App(
                    id: id, name: name, baseURL: baseURL, mobileScheme: mobileScheme, publicKeys: keys, redeem: routes,
                    appleAppIDs: native.appleAppIDs, androidApps: try native.parsedAndroidApps())
                app.appleNonceOptional = appleNonceOptional
                try await AppRegistry(store: try await DatabaseCommand.open(project).store).add(app)
                try DatabaseCommand.printItem(app.item)
            }
        }
    }

    struct Update: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Change the native apps a registered app lists for passkeys (its other fields stay).",
            discussion: """
                The lists given replace the app's: --apple-app-id and --android-app each replace \
                their own list, --no-apple-app-ids and --no-android-apps empty it. \
                /.well-known/apple-app-site-association and assetlinks.json list them.
                """)
        @Argument(help: "The app's id.") var id: String
        @OptionGroup var native: NativeAppOptions
        @Flag(name: .customLong("no-apple-app-ids"), help: "List no iOS app.") var noAppleAppIDs = false
        @Flag(name: .customLong("no-android-apps"), help: "List no Android app.") var noAndroidApps = false
        @OptionGroup var project: ProjectOptions

        func validate() throws {
            guard !native.appleAppIDs.isEmpty || !native.androidApps.isEmpty || noAppleAppIDs || noAndroidApps else {
                throw ValidationError(
                    "name what changes: --apple-app-id, --android-app, --no-apple-app-ids or --no-android-apps")
            }
            guard !(noAppleAppIDs && !native.appleAppIDs.isEmpty), !(noAndroidApps && !native.androidApps.isEmpty)
            else { throw ValidationError("a list cannot be both given and emptied") }
        }

        func run() async throws {
            try await UsageFailure.reporting {
                let android = try native.parsedAndroidApps()
                let setApple = noAppleAppIDs || !native.appleAppIDs.isEmpty
                let setAndroid = noAndroidApps || !native.androidApps.isEmpty
                let registry = AppRegistry(store: try await DatabaseCommand.open(project).store)
                let app = try await registry.update(id: id) { (app: inout App) throws(AppError) in
                    try app.associate(
                        appleAppIDs: setApple ? native.appleAppIDs : app.appleAppIDs,
                        androidApps: setAndroid ? android : app.androidApps)
                }
                try DatabaseCommand.printItem(app.item)
            }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Print every app, one JSON object per line.")
        @OptionGroup var project: ProjectOptions

        func run() async throws {
            try await UsageFailure.reporting {
                for app in try await AppRegistry(store: try await DatabaseCommand.open(project).store).list() {
                    try DatabaseCommand.printItem(app.item)
                }
            }
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Remove an app.")
        @Argument(help: "The app's id.") var id: String
        @OptionGroup var project: ProjectOptions

        func run() async throws {
            try await UsageFailure.reporting {
                try await AppRegistry(store: try await DatabaseCommand.open(project).store).remove(id: id)
            }
        }
    }
}
