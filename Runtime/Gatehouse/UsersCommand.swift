import AWSSecrets
import ArgumentParser
import AuthKit
import Foundation
import Store
import SupabaseImport

/// `gatehouse users`: users brought from elsewhere, into the store the other commands use.
struct UsersCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "users",
        abstract: "Import (from Supabase or Cognito) and export users; list, show, ban, unban, delete, sign out.",
        subcommands: [Import.self, Export.self, List.self, Show.self, Ban.self, Unban.self, Delete.self, Signout.self]
    )

    struct Import: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "import",
            abstract:
                "Import Supabase's users, identities, bcrypt hashes and TOTP factors (docs/supabase.md), or Cognito's.",
            discussion: """
                FILE is the JSON or CSV the query in docs/supabase.md exports. Each user keeps its \
                id; a user whose id is stored already, or whose address, phone or provider subject \
                another user has, is skipped, so running it again changes nothing. Verified TOTP \
                factors (the export's factors column) come with their users, sealed under the OTP \
                secret (OTP_SECRET, OTP_SECRET_FILE or OTP_SECRET_ARN; the local one beside a file \
                store); every factor left out is counted with its reason. Prints each skipped row \
                and why, then the counts. A file from `gatehouse users export` imports the same way.

                """ + cognitoHelp)
        @Argument(help: "The export: JSON (an array, or one object a line) or CSV with a header.") var file: String?
        @Option(
            name: .customLong("from-cognito"),
            help: "Import the users of the Cognito user pool POOL (its id) instead of a file (below).")
        var cognitoPool: String?
        @OptionGroup var project: ProjectOptions

        func validate() throws {
            guard (file == nil) != (cognitoPool == nil) else {
                throw ValidationError("give either FILE or --from-cognito POOL")
            }
        }

        func run() async throws {
            try await UsageFailure.reporting {
                let export = try await self.export()
                let store = try await DatabaseCommand.open(project).store
                let started = ContinuousClock.now
                let report = try await SupabaseUserImport(
                    store: store, clock: SystemStoreClock(), otpSecret: try await otpSecret()
                ).run(export)
                let elapsed = ContinuousClock.now - started
                for line in report.lines { Console.output(line) }
                Console.error(Self.rate(rows: report.rows, elapsed: elapsed))
            }
        }

        /// The functions' OTP secret, which imported TOTP secrets are sealed under (`UsersCommand.otpSecret`).
        func otpSecret() async throws -> OTPSecret? {
            try await UsersCommand.otpSecret(project)
        }

        /// `1000 rows in 2.31 s: 433 rows/s`.
        static func rate(rows: Int, elapsed: Duration) -> String {
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            let perSecond = seconds > 0 ? Int((Double(rows) / seconds).rounded()) : rows
            return "\(rows) rows in \(String(format: "%.2f", seconds)) s: \(perSecond) rows/s"
        }
    }
}
