import ArgumentParser
import AuthKit
import DevServer
import Emulator
import Foundation
import Store

/// `gatehouse dev`: shortcuts for trying the API locally before the sign-in methods exist.
struct DevCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dev",
        abstract: "Local shortcuts (never in production).",
        subcommands: [AuthCode.self, AppleToken.self]
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
        @Option(help: "Bind the code to this PKCE S256 challenge, as a client that sent one gets it.")
        var codeChallenge: String?
        @OptionGroup var project: ProjectOptions

        func run() async throws {
            try await UsageFailure.reporting {
                guard let address = EmailAddress(email) else { throw UsageFailure("\(email) is not an email address") }
                if let codeChallenge, !PKCE.isValidChallenge(codeChallenge) {
                    throw UsageFailure("--code-challenge must be an S256 challenge: 43 base64url characters")
                }
                let store = try await DatabaseCommand.open(project).store
                guard try await AppRegistry(store: store).app(id: app) != nil else {
                    throw UsageFailure("no app \(app): see gatehouse apps list")
                }
                let clock = SystemStoreClock()
                let (user, isNew) = try await UserDirectory(store: store, clock: clock).findOrCreate(
                    email: address, name: name, provider: provider)
                let code = try await AuthCodes(store: store, clock: clock).mint(
                    app: app, user: user, provider: provider, isNewUser: isNew, codeChallenge: codeChallenge)
                Console.output(code)
            }
        }
    }

    struct AppleToken: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "apple-token",
            abstract: "Print a Sign in with Apple identity token signed by start-api's dev provider.",
            discussion: """
                For POST /auth/verify-apple on `gatehouse start-api`, whose template takes Apple's keys \
                from the dev provider's JWKS (AppleJwksUrl). The token has Apple's issuer and claims; \
                production checks Apple's own keys, which never signed it. With --nonce, the token \
                carries the nonce's SHA-256 in hex, and the request sends the nonce itself.
                """
        )

        @Option(help: "The Apple user id (the token's sub, the request's user).") var sub: String
        @Option(help: "The user's email address.") var email: String?
        @Option(help: "The audience: a bundle id or services id (default: the first of AppleClientIds).")
        var aud: String?
        @Option(help: "The nonce the app made.") var nonce: String?
        @Option(name: .customLong("expires-in"), help: "Seconds until it expires.") var expiresIn: Double = 600
        @OptionGroup var project: ProjectOptions

        func run() async throws {
            try await UsageFailure.reporting {
                guard expiresIn.isFinite, (-86_400...86_400).contains(expiresIn) else {
                    throw UsageFailure("--expires-in must be a number of seconds within a day")
                }
                let token = AppleDevToken(
                    subject: sub, email: email, audience: try aud ?? defaultAudience(), nonce: nonce,
                    expiresIn: expiresIn)
                Console.output(
                    try token.signed(
                        with: DevProviderKey.loadOrCreate(in: project.stateDirectory),
                        now: Date().timeIntervalSince1970))
            }
        }

        /// The first client id the template gives `VerifyApple`.
        private func defaultAudience() throws -> String {
            let template = try project.loadTemplate()
            guard let ids = try? template.function(named: "VerifyApple").environment["APPLE_CLIENT_IDS"],
                let first = ids.split(separator: ",").first.map({ $0.trimmingCharacters(in: .whitespaces) }),
                !first.isEmpty
            else { throw UsageFailure("\(project.template) gives VerifyApple no APPLE_CLIENT_IDS: pass --aud") }
            return first
        }
    }
}
