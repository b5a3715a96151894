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
        abstract: "Import users (from Supabase); list, show, ban, unban, delete and sign out users.",
        subcommands: [Import.self, List.self, Show.self, Ban.self, Unban.self, Delete.self, Signout.self]
    )

    struct Import: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "import",
            abstract: "Import Supabase's users, identities, bcrypt hashes and TOTP factors (docs/supabase.md).",
            discussion: """
                FILE is the JSON or CSV the query in docs/supabase.md exports. Each user keeps its \
                id; a user whose id is stored already, or whose address, phone or provider subject \
                another user has, is skipped, so running it again changes nothing. Verified TOTP \
                factors (the export's factors column) come with their users, sealed under the OTP \
                secret (OTP_SECRET, OTP_SECRET_FILE or OTP_SECRET_ARN; the local one beside a file \
                store); every factor left out is counted with its reason. Prints each skipped row \
                and why, then the counts.
                """)
        @Argument(help: "The export: JSON (an array, or one object a line) or CSV with a header.") var file: String
        @OptionGroup var project: ProjectOptions

        func run() async throws {
            try await UsageFailure.reporting {
                guard let bytes = FileManager.default.contents(atPath: file) else {
                    throw UsageFailure("cannot read \(file)")
                }
                let export = try SupabaseExport(bytes: Array(bytes))
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

        /// The functions' OTP secret, which imported TOTP secrets are sealed under: `OTP_SECRET`,
        /// `OTP_SECRET_FILE`, or the Secrets Manager secret `OTP_SECRET_ARN` names; else, with the
        /// file store, the local one start-api's functions use (made if missing); else nil.
        func otpSecret() async throws -> OTPSecret? {
            var environment = ProcessInfo.processInfo.environment
            if project.storeKind == .file,
                ["OTP_SECRET", "OTP_SECRET_FILE", "OTP_SECRET_ARN"].allSatisfy({
                    (environment[$0] ?? "").isEmpty
                })
            {
                environment["OTP_SECRET_FILE"] =
                    URL(fileURLWithPath: project.stateDirectory).appendingPathComponent("otp-secret").path
            }
            return try OTPSecret.optional(environment: try await OTPSecretSource.resolve(environment))
        }

        /// `1000 rows in 2.31 s: 433 rows/s`.
        static func rate(rows: Int, elapsed: Duration) -> String {
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            let perSecond = seconds > 0 ? Int((Double(rows) / seconds).rounded()) : rows
            return "\(rows) rows in \(String(format: "%.2f", seconds)) s: \(perSecond) rows/s"
        }
    }
}
