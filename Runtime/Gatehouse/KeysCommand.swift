import ArgumentParser
import AuthKit
import JOSE

/// `gatehouse keys`: the issuer's signing keys.
struct KeysCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keys",
        abstract: "Manage the signing keys (a private JWK Set; the first key signs).",
        subcommands: [List.self, Generate.self, Rotate.self, Retire.self, Publish.self]
    )

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the keys: kid, algorithm, size, status.")
        @OptionGroup var project: ProjectOptions

        func run() async throws {
            try await UsageFailure.reporting {
                let keys = try project.signingKeyStore().load()
                Console.output("KID                                          ALG    BITS  STATUS")
                for (index, key) in keys.keys.enumerated() {
                    Console.output("\(key.kid)  RS256  \(key.bits)  \(index == 0 ? "current" : "previous")")
                }
            }
        }
    }

    struct Generate: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Create the key set with one new key.")
        @OptionGroup var project: ProjectOptions
        @Flag(help: "Replace an existing key set: every token it signed stops verifying.")
        var force = false

        func run() async throws {
            try await UsageFailure.reporting {
                let store = project.signingKeyStore()
                if !force, (try? store.load()) != nil {
                    throw UsageFailure(
                        "signing keys already exist at \(store.location.displayName): use `gatehouse keys rotate`, or --force to replace them"
                    )
                }
                let keys = try SigningKeySet.generate()
                try store.save(keys)
                Console.output(keys.current.kid)
            }
        }
    }

    struct Rotate: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add a new current key; the old one stays published until retired."
        )
        @OptionGroup var project: ProjectOptions

        func run() async throws {
            try await UsageFailure.reporting {
                let store = project.signingKeyStore()
                var keys = try store.loadOrCreate().keys
                try keys.rotate()
                try store.save(keys)
                Console.output(keys.current.kid)
            }
        }
    }

    struct Retire: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Stop publishing a previous key: tokens it signed stop verifying."
        )
        // A kid is base64url and may begin with "-": taken as it is, never as an option.
        @Argument(parsing: .allUnrecognized, help: ArgumentHelp("The kid of the key to retire.", valueName: "kid"))
        var kids: [String] = []
        @OptionGroup var project: ProjectOptions

        func validate() throws {
            guard kids.count == 1 else { throw ValidationError("give exactly one kid to retire") }
        }

        func run() async throws {
            let kid = kids[0]
            try await UsageFailure.reporting {
                let store = project.signingKeyStore()
                var keys = try store.load()
                try keys.retire(kid: kid)
                try store.save(keys)
                Console.output("retired \(kid)")
            }
        }
    }
}

extension SigningKeyLocation {
    /// How to name the location in a message, without ever printing inline key material.
    var displayName: String {
        switch self {
        case .inline: "SIGNING_KEYS"
        case .file(let path): path
        }
    }
}
