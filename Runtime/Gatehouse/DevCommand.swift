import ArgumentParser
import AuthKit
import Store

/// `gatehouse dev`: shortcuts for trying the API locally before the sign-in methods exist.
struct DevCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dev",
        abstract: "Local shortcuts (never in production).",
        subcommands: [AuthCode.self]
    )

    struct AuthCode: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "auth-code",
            abstract: "Find or create the user with an email address and print a fresh auth code for an app.",
            discussion: "The code works once, for 60 seconds: exchange it with `gatehouse invoke Exchange`."
        )

        @Option(help: "The app the code is for.") var app: String
        @Option(help: "The user's email address.") var email: String
        @Option(help: "The user's name, for a new user.") var name: String?
        @Option(help: "The sign-in provider to record.") var provider: String = "email"
        @OptionGroup var project: ProjectOptions

        func run() async throws {
            try await UsageFailure.reporting {
                guard let address = EmailAddress(email) else { throw UsageFailure("\(email) is not an email address") }
                let store = try await DatabaseCommand.open(project)
                guard try await AppRegistry(store: store).app(id: app) != nil else {
                    throw UsageFailure("no app \(app): see gatehouse apps list")
                }
                let clock = SystemStoreClock()
                let (user, isNew) = try await UserDirectory(store: store, clock: clock).findOrCreate(
                    email: address, name: name, provider: provider)
                let code = try await AuthCodes(store: store, clock: clock).mint(
                    app: app, user: user, provider: provider, isNewUser: isNew)
                Console.output(code)
            }
        }
    }
}
