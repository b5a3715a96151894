import ArgumentParser
import AuthKit
import Emulator
import Foundation
import GatehouseJSON

/// `gatehouse s2s`: server-to-server calls as an app's backend makes them.
struct S2SCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "s2s",
        abstract: "Sign server-to-server calls as an app's backend does.",
        subcommands: [Sign.self]
    )

    struct Sign: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Sign a request body with an app's private key and print the headers to send.",
            discussion: """
                The assertion is a JWT (iss = sub = the app, aud = ISSUER, a fresh jti, body_sha256) \
                valid for at most 60 seconds and once. Send the body exactly as given. With --event, \
                print the sample event with the body and headers in place instead, for \
                `gatehouse invoke VerifyCode --event -`.
                """
        )

        @Option(help: "The app's id (iss and sub of the assertion).") var app: String
        @Option(help: "A file with the app's private key in PEM (RSA 2048+ or P-256).") var key: String
        @Option(help: "The exact request body.") var body: String
        @Option(help: "The aud: Gatehouse's ISSUER (default: the ISSUER VerifyCode has in the template).")
        var audience: String?
        @Option(help: "Seconds the assertion is valid, 1 to 60.") var lifetime: Int = 60
        @Option(help: "An API Gateway v2 event to print with the body and headers set.") var event: String?
        @OptionGroup var project: ProjectOptions

        func run() async throws {
            try await UsageFailure.reporting {
                guard (1...60).contains(lifetime) else { throw UsageFailure("--lifetime must be 1 to 60 seconds") }
                guard let pem = try? String(contentsOfFile: key, encoding: .utf8) else {
                    throw UsageFailure("cannot read the private key file \(key)")
                }
                let signingKey = try S2SAssertionSigner.privateKey(pem: pem)
                let audience = try self.audience ?? templateIssuer()
                let bodyBytes = Array(body.utf8)
                let assertion = try S2SAssertionSigner.sign(
                    app: app, audience: audience, body: bodyBytes, key: signingKey,
                    now: Date().timeIntervalSince1970, lifetime: Double(lifetime))
                let headers = [
                    "authorization": "Bearer \(assertion)",
                    "x-amz-content-sha256": SHA256Hex.of(bodyBytes),
                    "content-type": "application/json",
                ]
                guard let event else {
                    for name in ["authorization", "x-amz-content-sha256", "content-type"] {
                        Console.output("\(name): \(headers[name]!)")
                    }
                    return
                }
                Console.output(try Self.event(at: event, body: body, headers: headers).serialized)
            }
        }

        /// The `ISSUER` the VerifyCode function gets from the template.
        private func templateIssuer() throws -> String {
            let template = try project.loadTemplate()
            guard let issuer = try template.function(named: "VerifyCode").environment["ISSUER"] else {
                throw UsageFailure("VerifyCode has no ISSUER in \(project.template); give --audience")
            }
            return issuer
        }

        /// The event in `path` (payload 1.0 or 2.0) with `body` as its plain body and `headers` set,
        /// replacing any of the same name in another case; the other headers kept.
        static func event(at path: String, body: String, headers: [String: String]) throws -> JSONValue {
            guard let data = FileManager.default.contents(atPath: path) else {
                throw UsageFailure("cannot read the event file \(path)")
            }
            guard case .object(var event) = try? JSONValue(parsing: Array(data)) else {
                throw UsageFailure("\(path) is not a JSON object")
            }
            var headers = headers
            headers["content-length"] = String(body.utf8.count)
            event["headers"] = .object(
                replacing(event["headers"]?.objectValue, with: headers.mapValues { .string($0) }))
            if let multiValue = event["multiValueHeaders"]?.objectValue {
                event["multiValueHeaders"] = .object(
                    replacing(multiValue, with: headers.mapValues { .array([.string($0)]) }))
            }
            event["body"] = .string(body)
            event["isBase64Encoded"] = .bool(false)
            return .object(event)
        }

        /// `members` with `replacements` set, and any member named as one of them in another
        /// case removed (a REST event keeps the client's header case).
        static func replacing(
            _ members: [String: JSONValue]?, with replacements: [String: JSONValue]
        )
            -> [String: JSONValue]
        {
            let replaced = Set(replacements.keys.map { $0.lowercased() })
            var kept = (members ?? [:]).filter { !replaced.contains($0.key.lowercased()) }
            kept.merge(replacements) { $1 }
            return kept
        }
    }
}
