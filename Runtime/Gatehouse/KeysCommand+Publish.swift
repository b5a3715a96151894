import AWSSecrets
import ArgumentParser
import AuthKit
import Foundation
import JOSE
import OutboundHTTP

extension KeysCommand {
    /// `gatehouse keys publish`: the public half of the key set, to the SSM parameter `Jwks`
    /// serves, so that no function that only publishes keys reads the private set.
    struct Publish: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write the public keys to the SSM parameter Jwks serves (the template's PublicKeysParameter).",
            discussion: """
                The keys are the project's (SIGNING_KEYS_FILE, SIGNING_KEYS, or the secret SIGNING_KEYS_SECRET \
                names); AWS_REGION and credentials come from the environment (AWS_ENDPOINT_URL_SSM for a local \
                endpoint). Publish after every generate, rotate or retire: a Jwks instance reads the parameter at \
                its cold start.
                """)
        @OptionGroup var project: ProjectOptions
        @Option(help: "The parameter's name (the template's PublicKeysParameter).")
        var parameter = "gatehouse-public-keys"

        func run() async throws {
            try await UsageFailure.reporting {
                let environment = try await SigningKeySecret.resolve(ProcessInfo.processInfo.environment)
                let keys = try project.signingKeyStore(environment: environment).loadPublicJWKS()
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
                let json = String(decoding: try encoder.encode(keys), as: UTF8.self)
                // A command a person waits on: patient with a slow endpoint, as the CLI's store is.
                let http = OutboundHTTPClient(
                    configuration: .patient(caBundle: ProcessInfo.processInfo.environment["SSL_CERT_FILE"]))
                try await PublicKeysParameter.publish(json, name: parameter, environment: environment, http: http)
                for key in keys.keys { Console.output(key.kid ?? "") }
                Console.error("published \(keys.keys.count) public key(s) to the SSM parameter \(parameter)")
            }
        }
    }
}
