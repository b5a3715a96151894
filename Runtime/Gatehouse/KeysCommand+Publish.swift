import AWSSecrets
import ArgumentParser
import AuthKit
import Foundation
import JOSE
import OutboundHTTP

extension KeysCommand {
    /// `gatehouse keys publish`: the public half of the key set, to the SSM parameter `Jwks`
    /// serves, so that no function that only publishes keys reads the private set. The parameter
    /// is the stack's (`--stack-name`: `/gatehouse/STACK/public-keys`, as the template names it),
    /// so that publishing for one stack never replaces another's keys; `--parameter` names one
    /// outright.
    struct Publish: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract:
                "Write the public keys to the SSM parameter a stack's Jwks serves (/gatehouse/STACK/public-keys).",
            discussion: """
                The keys are the project's (SIGNING_KEYS_FILE, SIGNING_KEYS, or the secret SIGNING_KEYS_SECRET \
                names); AWS_REGION and credentials come from the environment (AWS_ENDPOINT_URL_SSM for a local \
                endpoint). Publish after every generate, rotate or retire: a Jwks instance reads the parameter at \
                its cold start.
                """)
        @OptionGroup var project: ProjectOptions
        @Option(help: "The stack whose Jwks serves the keys: the parameter is /gatehouse/STACK/public-keys.")
        var stackName: String?
        @Option(help: "The parameter's name outright, instead of the stack's.")
        var parameter: String?

        /// The parameter the options name: exactly one of `--stack-name` and `--parameter`.
        func parameterName() throws(UsageFailure) -> String {
            switch (stackName, parameter) {
            case (nil, nil): throw UsageFailure("name the stack whose keys these are: --stack-name STACK")
            case (.some, .some): throw UsageFailure("give --stack-name or --parameter, not both")
            case (let stack?, nil):
                // CloudFormation's stack names: a letter, then letters, digits and hyphens.
                guard stack.wholeMatch(of: #/[A-Za-z][A-Za-z0-9-]{0,127}/#) != nil else {
                    throw UsageFailure("--stack-name: \(stack) is not a CloudFormation stack name")
                }
                return PublicKeysParameter.name(stack: stack)
            case (nil, let name?):
                guard !name.isEmpty else { throw UsageFailure("--parameter must name a parameter") }
                return name
            }
        }

        func run() async throws {
            try await UsageFailure.reporting {
                let parameter = try parameterName()
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
