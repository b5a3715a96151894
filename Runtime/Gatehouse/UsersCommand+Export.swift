import ArgumentParser
import AuthKit
import SupabaseImport

extension UsersCommand {
    /// `gatehouse users export`: every user as the JSON lines `users import` reads.
    struct Export: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "export",
            abstract: "Export every user as JSON lines in the shape `users import` reads.",
            discussion: """
                Writes one JSON object a line on standard output, oldest user first: Supabase's \
                auth.users columns with the user's identities (docs/supabase.md), so `users import` \
                of the output into an empty store, exported again, gives the same lines. Without \
                --include-password-hashes no line holds a secret. Anonymous users, sign-ups waiting \
                for their texted code, phone and WebAuthn factors and passkeys are left out (an \
                import brings none of them), each counted on standard error with the rate.
                """)
        @Flag(
            help: """
                Also export each password hash as stored (encrypted_password: scrypt, or an \
                imported bcrypt hash) and each verified TOTP factor with its secret in plain base32 \
                (factors), opened with the OTP secret (OTP_SECRET, OTP_SECRET_FILE or \
                OTP_SECRET_ARN; the local one beside a file store; without one, TOTP factors are left \
                out and counted). The output is then as secret \
                as the store itself: anyone holding it can check guesses of every password offline \
                and make every TOTP code.
                """)
        var includePasswordHashes = false
        @OptionGroup var project: ProjectOptions

        func run() async throws {
            try await UsageFailure.reporting {
                let store = try await DatabaseCommand.open(project).store
                let otpSecret = includePasswordHashes ? try await UsersCommand.otpSecret(project) : nil
                let started = ContinuousClock.now
                var buffer: [UInt8] = []
                let report = try await SupabaseUserExport(
                    store: store, includeSecrets: includePasswordHashes, otpSecret: otpSecret
                ).run { line in
                    buffer += line.utf8
                    buffer.append(UInt8(ascii: "\n"))
                    if buffer.count >= 1 << 16 {
                        Console.output(buffer)
                        buffer.removeAll(keepingCapacity: true)
                    }
                }
                Console.output(buffer)
                let elapsed = ContinuousClock.now - started
                for line in report.lines { Console.error(line) }
                Console.error(Import.rate(rows: report.rows, elapsed: elapsed))
            }
        }
    }
}
