import ArgumentParser

#if canImport(Glibc)
import Glibc
#endif

/// `gatehouse`: run, inspect and package the Gatehouse functions locally.
@main
struct GatehouseCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gatehouse",
        abstract: "Run Gatehouse's Lambda functions locally, the way AWS Lambda runs them.",
        subcommands: [
            InvokeCommand.self, StartAPICommand.self, StartLambdaCommand.self, PackageCommand.self, KeysCommand.self,
            DatabaseCommand.self,
            AppsCommand.self, UsersCommand.self, DevCommand.self, S2SCommand.self, OutboxCommand.self,
            AuditCommand.self,
        ]
    )

    /// Runs the command; every kind of bad input, the parser's included, exits with status 2.
    static func main() async {
        do {
            var command = try parseAsRoot()
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            if exitCode(for: error) == .validationFailure {
                Console.error(fullMessage(for: error))
                Glibc.exit(2)
            }
            exit(withError: error)
        }
    }
}
