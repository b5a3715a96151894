import ArgumentParser
import AuthKit
import Foundation
import GatehouseJSON
import Store

extension AppsCommand {
    /// `gatehouse apps key create|list|revoke APP`: an app's server keys (Supabase's secret
    /// key, for its admin API).
    struct Key: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "key",
            abstract: "Make, list and revoke an app's server keys (for /auth/v1/admin/*).",
            subcommands: [Create.self, List.self, Revoke.self])

        struct Create: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Make a server key for APP and print it once (only its hash is stored).",
                discussion: """
                    The key is sent as Supabase's secret key is (apikey and Authorization: Bearer), \
                    from a server only: a request with an Origin header is refused. It manages every \
                    user of the deployment (users are not per app). Several keys may live at once, \
                    so a key is rotated by making the next one, then revoking the old one.
                    """)
            @Argument(help: "The app's id.") var app: String
            @OptionGroup var project: ProjectOptions

            func run() async throws {
                try await UsageFailure.reporting {
                    let store = try await DatabaseCommand.open(project).store
                    let (secret, key) = try await ServerKeys(store: store, clock: SystemStoreClock()).create(app: app)
                    Console.error("server key \(key.id) of \(key.app): shown once, keep it secret")
                    Console.output(secret)
                }
            }
        }

        struct List: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Print APP's server keys, one JSON object a line: id and creation time, never the key.")
            @Argument(help: "The app's id.") var app: String
            @OptionGroup var project: ProjectOptions

            func run() async throws {
                try await UsageFailure.reporting {
                    let store = try await DatabaseCommand.open(project).store
                    for key in try await ServerKeys(store: store, clock: SystemStoreClock()).list(app: app) {
                        try DatabaseCommand.printItem([
                            "id": .string(key.id), "app": .string(key.app), "createdAt": .number(key.createdAt),
                        ])
                    }
                }
            }
        }

        struct Revoke: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Revoke APP's server key KEYID: the next request with it is refused.")
            @Argument(help: "The app's id.") var app: String
            @Argument(help: "The key's id (gatehouse apps key list).") var keyID: String
            @OptionGroup var project: ProjectOptions

            func run() async throws {
                try await UsageFailure.reporting {
                    let store = try await DatabaseCommand.open(project).store
                    try await ServerKeys(store: store, clock: SystemStoreClock()).revoke(app: app, keyID: keyID)
                }
            }
        }
    }
}
