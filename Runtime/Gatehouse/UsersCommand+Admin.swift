import ArgumentParser
import AuthKit
import Foundation
import GatehouseJSON
import Store

/// `gatehouse users list|show|ban|unban|delete|signout`: the admin API's operations
/// (`UserAdmin`, the same code `SupabaseAdmin` runs) from a terminal, on the file store or
/// DynamoDB (`ProjectOptions`).
extension UsersCommand {
    /// The operations, made at a terminal.
    static func admin(_ project: ProjectOptions) async throws -> UserAdmin {
        UserAdmin(store: try await DatabaseCommand.open(project).store, clock: SystemStoreClock(), actor: .terminal)
    }

    /// A user as the commands print it: the stored fields, never a password (kept apart).
    static func printUser(_ user: User) throws {
        var item = user.item
        item["indexKeys"] = nil
        try DatabaseCommand.printItem(item)
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print users, newest first, one JSON object a line (a page of them).")
        @Option(help: "The page, from 1.") var page = 1
        @Option(name: .customLong("per-page"), help: "Users a page, 1 to 1000.") var perPage = 1000
        @OptionGroup var project: ProjectOptions

        func run() async throws {
            try await UsageFailure.reporting {
                let (users, total) = try await UsersCommand.admin(project).list(page: page, perPage: perPage)
                for user in users { try UsersCommand.printUser(user) }
                Console.error("\(users.count) of \(total) users")
            }
        }
    }

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Print the user USERID (or with --email).")
        @Argument(help: "The user's id.") var userID: String?
        @Option(help: "Find the user by address instead.") var email: String?
        @OptionGroup var project: ProjectOptions

        func run() async throws {
            try await UsageFailure.reporting {
                try UsersCommand.printUser(try await UsersCommand.find(userID, email: email, project))
            }
        }
    }

    struct Ban: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Ban USERID for a while: every session ends now and every sign-in is refused until then.")
        @Argument(help: "The user's id.") var userID: String
        @Option(name: .customLong("for"), help: "How long, as Go writes durations: 24h, 90m, 876000h.")
        var duration: String
        @OptionGroup var project: ProjectOptions

        func run() async throws {
            try await UsageFailure.reporting {
                guard let seconds = GoDuration.seconds(duration), seconds > 0 else {
                    throw UsageFailure("--for takes a duration such as 24h or 90m, not \(duration)")
                }
                try UsersCommand.printUser(try await UsersCommand.admin(project).ban(id: userID, forSeconds: seconds))
            }
        }
    }

    struct Unban: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Lift USERID's ban.")
        @Argument(help: "The user's id.") var userID: String
        @OptionGroup var project: ProjectOptions

        func run() async throws {
            try await UsageFailure.reporting {
                try UsersCommand.printUser(try await UsersCommand.admin(project).ban(id: userID, forSeconds: nil))
            }
        }
    }

    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Delete USERID: sessions, user, password, factors and passkeys.")
        @Argument(help: "The user's id.") var userID: String
        @OptionGroup var project: ProjectOptions

        func run() async throws {
            try await UsageFailure.reporting { try await UsersCommand.admin(project).delete(id: userID) }
        }
    }

    struct Signout: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "signout", abstract: "End every session of USERID at once.")
        @Argument(help: "The user's id.") var userID: String
        @OptionGroup var project: ProjectOptions

        func run() async throws {
            try await UsageFailure.reporting { try await UsersCommand.admin(project).signOut(id: userID) }
        }
    }

    /// The user `userID`, or the one with `email`.
    static func find(_ userID: String?, email: String?, _ project: ProjectOptions) async throws -> User {
        let admin = try await admin(project)
        if let userID { return try await admin.user(id: userID) }
        guard let email, let address = EmailAddress(email) else { throw UsageFailure("give a user id or --email") }
        guard let user = try await admin.users.user(email: address) else { throw UserAdminError.userNotFound }
        return user
    }
}
