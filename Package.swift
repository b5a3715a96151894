// swift-tools-version:6.1
import PackageDescription

/// Settings shared by every target: Swift 6 language mode is the package default;
/// these make dependency edges explicit so a function binary links only what it imports.
let strict: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

let logging: Target.Dependency = .product(name: "Logging", package: "swift-log")
let nioCore: Target.Dependency = .product(name: "NIOCore", package: "swift-nio")

/// Every function: an executable target in `Functions/NAME` that deploys unchanged as its own
/// `bootstrap`. A new function is named once, here: its target and the end-to-end tests'
/// dependency on it are made from this list (see ARCHITECTURE.md, "Adding an endpoint").
let functions: [(name: String, dependencies: [Target.Dependency])] = [
    (
        "SupabaseSignup",
        ["AWSSecrets", "AWSDelivery", "LambdaRuntime", "HTTPEdge", "SupabaseEdge", "AuthKit", "FunctionStore", logging]
    ),
    (
        "SupabaseRecover",
        [
            "AWSSecrets",
            "AWSDelivery", "GatehouseJSON", "LambdaRuntime", "HTTPEdge", "SupabaseEdge", "AuthKit", "FunctionStore",
            logging,
        ]
    ),
    (
        "SupabaseOtp",
        [
            "AWSSecrets",
            "AWSDelivery", "GatehouseJSON", "LambdaRuntime", "HTTPEdge", "SupabaseEdge", "AuthKit", "FunctionStore",
            logging,
        ]
    ),
    (
        "SupabaseToken",
        [
            "AWSSecrets", "AWSDelivery", "AWSCognito", "LambdaRuntime", "HTTPEdge", "SupabaseEdge", "AuthKit",
            "FunctionStore", logging, "JOSE", "JOSEHTTP", "OutboundHTTP",
        ]
    ),
    (
        "SupabaseVerify",
        [
            "AWSSecrets", "GatehouseJSON", "AWSDelivery", "LambdaRuntime", "HTTPEdge", "SupabaseEdge", "AuthKit",
            "FunctionStore", logging,
        ]
    ),
    (
        "SupabaseUser",
        [
            "AWSSecrets", "AWSDelivery", "GatehouseJSON", "LambdaRuntime", "HTTPEdge", "SupabaseEdge", "AuthKit",
            "PasskeyKit", "FunctionStore", logging,
        ]
    ),
    (
        "SupabaseLogout",
        ["AWSSecrets", "LambdaRuntime", "HTTPEdge", "SupabaseEdge", "AuthKit", "FunctionStore", "StoreCore", logging]
    ),
    (
        "SupabaseAdmin",
        [
            "AWSSecrets", "AWSDelivery", "GatehouseJSON", "LambdaRuntime", "HTTPEdge", "SupabaseEdge", "AuthKit",
            "FunctionStore",
            "StoreCore", logging,
        ]
    ),
    (
        "SupabasePasskeys",
        [
            "AWSSecrets", "GatehouseJSON", "LambdaRuntime", "HTTPEdge", "SupabaseEdge", "AuthKit", "PasskeyKit",
            "FunctionStore", logging,
        ]
    ),
    ("UserProfile", ["AWSSecrets", "LambdaRuntime", "HTTPEdge", "AuthKit", "FunctionStore"]),
    (
        "DeleteAccount",
        ["AWSSecrets", "GatehouseJSON", "LambdaRuntime", "HTTPEdge", "AuthKit", "FunctionStore", logging]
    ),
    ("Exchange", ["AWSSecrets", "LambdaRuntime", "HTTPEdge", "AuthKit", "FunctionStore", logging]),
    ("Refresh", ["AWSSecrets", "LambdaRuntime", "HTTPEdge", "AuthKit", "FunctionStore", logging]),
    ("Logout", ["AWSSecrets", "GatehouseJSON", "LambdaRuntime", "HTTPEdge", "AuthKit", "FunctionStore", logging]),
    ("VerifyCode", ["AWSSecrets", "LambdaRuntime", "HTTPEdge", "AuthKit", "FunctionStore", logging]),
    (
        "SendMagicLink",
        ["AWSSecrets", "AWSDelivery", "GatehouseJSON", "LambdaRuntime", "HTTPEdge", "AuthKit", "FunctionStore"]
    ),
    (
        "EmailMagicLink",
        ["AWSSecrets", "AWSDelivery", "GatehouseJSON", "LambdaRuntime", "HTTPEdge", "AuthKit", "FunctionStore"]
    ),
    ("EmailCallback", ["AWSSecrets", "AWSDelivery", "LambdaRuntime", "HTTPEdge", "AuthKit", "FunctionStore", logging]),
    (
        "OtpRequest",
        ["AWSSecrets", "AWSDelivery", "GatehouseJSON", "LambdaRuntime", "HTTPEdge", "AuthKit", "FunctionStore"]
    ),
    ("OtpVerify", ["AWSSecrets", "AWSDelivery", "LambdaRuntime", "HTTPEdge", "AuthKit", "FunctionStore"]),
    (
        "VerifyApple",
        [
            "AWSSecrets", "GatehouseJSON", "LambdaRuntime", "HTTPEdge", "AuthKit", "FunctionStore", "JOSE", "JOSEHTTP",
            "OutboundHTTP", logging,
        ]
    ),
    ("Authorize", ["AWSSecrets", "AWSDelivery", "LambdaRuntime", "HTTPEdge", "AuthKit", "FunctionStore", logging]),
    (
        "OAuthCallback",
        [
            "AWSSecrets", "LambdaRuntime", "HTTPEdge", "AuthKit", "FunctionStore", "JOSE", "JOSEHTTP", "OutboundHTTP",
            logging,
        ]
    ),
    ("Jwks", ["AWSSecrets", "LambdaRuntime", "HTTPEdge", "AuthKit", "JOSE", nioCore]),
    (
        "Authorizer",
        [
            "AWSSecrets",
            "LambdaEvents", "LambdaRuntime", "AuthKit", "JOSE", "JOSEHTTP", "OutboundHTTP", "GatehouseJSON",
            "FunctionStore", nioCore, logging,
        ]
    ),
    ("SupabaseSettings", ["LambdaRuntime", "HTTPEdge", "SupabaseEdge", "AuthKit", "FunctionStore"]),
]

let package = Package(
    name: "gatehouse",
    platforms: [.macOS(.v15), .iOS(.v18)],
    products: [
        .executable(name: "gatehouse", targets: ["Gatehouse"]),
        .executable(name: "Jwks", targets: ["Jwks"]),
        .executable(name: "Authorizer", targets: ["Authorizer"]),
        .library(name: "GatehouseJSON", targets: ["GatehouseJSON"]),
        .library(name: "LambdaRuntime", targets: ["LambdaRuntime"]),
        .library(name: "LambdaEvents", targets: ["LambdaEvents"]),
        .library(name: "HTTPEdge", targets: ["HTTPEdge"]),
        .library(name: "JOSE", targets: ["JOSE"]),
        .library(name: "JOSEHTTP", targets: ["JOSEHTTP"]),
        .library(name: "Emulator", targets: ["Emulator"]),
        .library(name: "AuthKit", targets: ["AuthKit"]),
        .library(name: "Store", targets: ["Store"]),
        .library(name: "StoreCore", targets: ["StoreCore"]),
        .library(name: "DynamoDBStore", targets: ["DynamoDBStore"]),
        .library(name: "AWSSigning", targets: ["AWSSigning"]),
    ],
    dependencies: [
        // The app's library: a package of its own (Client/Package.swift) with the platforms its code
        // needs, which are lower than the server's.
        .package(path: "Client"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.5.2"),
        .package(url: "https://github.com/apple/swift-asn1.git", from: "1.7.4"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1", traits: []),
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
        // bcrypt (HummingbirdBcrypt: OpenBSD's C, no other dependency) for the hashes of users
        // imported from Supabase, checked once and then redone with scrypt.
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth.git", from: "2.5.0"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        // Already in the graph through AsyncHTTPClient and Hummingbird; named here only so the
        // tests' HTTPS servers can load their test certificates.
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        // The test servers stop by ServiceLifecycle's graceful shutdown (Tests/Support/TestServers).
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
    ],
    targets: [
        // MARK: Runtime
        // Symbols that keep a packaged binary within the target image's glibc (see hypot.c).
        .target(
            name: "GlibcCompat",
            path: "Runtime/GlibcCompat"
        ),
        .systemLibrary(
            name: "CZlib",
            path: "Runtime/CZlib",
            providers: [.apt(["zlib1g-dev"])]
        ),
        // `gatehouse package`: ELF checks against the Lambda images, reproducible zips.
        .target(
            name: "Packaging",
            dependencies: ["CZlib"],
            path: "Runtime/Packaging",
            swiftSettings: strict
        ),
        .target(
            name: "GatehouseJSON",
            path: "Runtime/JSON",
            swiftSettings: strict
        ),
        .target(
            name: "LambdaRuntime",
            dependencies: [
                "GatehouseJSON",
                "GlibcCompat",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Runtime/LambdaRuntime",
            swiftSettings: strict
        ),
        // Typed (Codable) handlers (`Lambda.run`) and the authorizer's answers: apart from the
        // runtime so that a function that reads its events through HTTPEdge links no Codable
        // event machinery.
        .target(
            name: "LambdaEvents",
            dependencies: [
                "LambdaRuntime", "GatehouseJSON",
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            path: "Runtime/LambdaEvents",
            swiftSettings: strict
        ),
        .target(
            name: "JOSE",
            dependencies: [
                "GatehouseJSON",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
            ],
            path: "Runtime/JOSE",
            exclude: ["HTTP"],
            swiftSettings: strict
        ),
        // WebAuthn's relying-party checks (passkeys): bounded CBOR, COSE keys, authenticator
        // data, attestation `none`/`packed`, the ceremonies' verification; no store, no HTTP.
        .target(
            name: "WebAuthn",
            dependencies: [
                "GatehouseJSON",
                "JOSE",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
            ],
            path: "Runtime/WebAuthn",
            swiftSettings: strict
        ),
        // The HTTP side of the JWKS cache, on the functions' HTTPS client.
        .target(
            name: "JOSEHTTP",
            dependencies: ["JOSE", "OutboundHTTP"],
            path: "Runtime/JOSE/HTTP",
            swiftSettings: strict
        ),
        // libcurl's easy interface, looked up at run time (dlopen) so that no binary needs
        // Debian's CURL_OPENSSL_4 symbol versions; its types and constants are the shim's own (no
        // curl.h, so the build needs no libcurl4-openssl-dev).
        .target(
            name: "CCurl",
            path: "Runtime/OutboundHTTP/CCurl"
        ),
        // The functions' one outbound HTTP client: blocking, on libcurl, no event loop.
        .target(
            name: "OutboundHTTP",
            dependencies: ["CCurl", "LambdaRuntime"],
            path: "Runtime/OutboundHTTP",
            exclude: ["CCurl"],
            swiftSettings: strict
        ),
        // The store's contract (the protocol, keys, conditions, errors, table definitions),
        // without a backend: what the sign-in domain is written against, so a function that
        // only needs the contract does not link GRDB and SQLite.
        .target(
            name: "AWSSigning",
            dependencies: [.product(name: "Crypto", package: "swift-crypto")],
            path: "Runtime/AWS/Signing",
            swiftSettings: strict
        ),
        .target(
            name: "AWSCalls",
            dependencies: ["AWSSigning", "OutboundHTTP", "GatehouseJSON"],
            path: "Runtime/AWS/Calls",
            swiftSettings: strict
        ),
        .target(
            name: "AWSSecrets",
            dependencies: ["AWSCalls", "AWSSigning", "OutboundHTTP", "GatehouseJSON", "LambdaRuntime", "AuthKit"],
            path: "Runtime/AWS/Secrets",
            swiftSettings: strict
        ),
        // Cognito's user pools, as users are moved from them: the CLI's signed listing
        // (`users import --from-cognito`) and SupabaseToken's password check (its migration).
        .target(
            name: "AWSCognito",
            dependencies: ["AuthKit", "AWSCalls", "AWSSigning", "OutboundHTTP", "GatehouseJSON"],
            path: "Runtime/AWS/Cognito",
            swiftSettings: strict
        ),
        .target(
            name: "AWSDelivery",
            dependencies: ["AuthKit", "AWSCalls", "AWSSecrets", "AWSSigning", "OutboundHTTP", "GatehouseJSON"],
            path: "Runtime/AWS/Delivery",
            swiftSettings: strict
        ),
        .target(
            name: "StoreCore",
            dependencies: ["GatehouseJSON"],
            path: "Runtime/Store/Core",
            swiftSettings: strict
        ),
        // SQLite's C API, looked up at run time (dlopen): only a function given a store file
        // (GATEHOUSE_STORE) loads libsqlite3, so no zip carries it. Its types and constants are
        // the shim's own (no SQLite header, so the build needs no libsqlite3-dev).
        .target(
            name: "CSQLite",
            path: "Runtime/Store/CSQLite"
        ),
        // The SQLite backend; re-exports StoreCore.
        .target(
            name: "Store",
            dependencies: ["StoreCore", "GatehouseJSON", "CSQLite"],
            path: "Runtime/Store",
            exclude: ["Core", "CSQLite", "DynamoDB", "Selection"],
            swiftSettings: strict
        ),
        .target(
            name: "DynamoDBStore",
            dependencies: ["StoreCore", "GatehouseJSON", "OutboundHTTP", "AWSSigning", "AWSCalls", "LambdaRuntime"],
            path: "Runtime/Store/DynamoDB",
            swiftSettings: strict
        ),
        .target(
            name: "FunctionStore",
            dependencies: ["Store", "DynamoDBStore", "StoreCore", "GatehouseJSON"],
            path: "Runtime/Store/Selection",
            swiftSettings: strict
        ),
        .target(
            name: "Emulator",
            dependencies: [
                "JOSE", "JOSEHTTP",
                "GatehouseJSON",
                "LambdaRuntime",
                "StoreCore",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Runtime/Emulator",
            swiftSettings: strict
        ),
        .target(
            name: "DevServer",
            dependencies: ["Emulator", "AuthKit", "HTTPEdge", "JOSE", "GatehouseJSON"],
            path: "Runtime/DevServer",
            swiftSettings: strict
        ),
        .executableTarget(
            name: "Gatehouse",
            dependencies: [
                "GatehouseJSON", "LambdaRuntime", .product(name: "NIOCore", package: "swift-nio"),
                "Emulator",
                "DevServer",
                "Store",
                "DynamoDBStore",
                "AWSSigning",
                "AWSSecrets",
                "AWSCognito",
                "AuthKit",
                "JOSE",
                "Packaging",
                "SupabaseImport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Runtime/Gatehouse",
            swiftSettings: strict
        ),
        // `gatehouse users import`: Supabase's export of auth.users (JSON or CSV) read into
        // Gatehouse's users, written on conditions. The CLI's only: no function links it.
        .target(
            name: "SupabaseImport",
            dependencies: ["AuthKit", "GatehouseJSON", "StoreCore"],
            path: "Runtime/SupabaseImport",
            swiftSettings: strict
        ),

        // MARK: Functions
        // The libraries functions share; the functions themselves are the `functions` list above.
        .target(
            name: "AuthKit",
            dependencies: [
                "JOSE", "GatehouseJSON", "StoreCore", .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
            ],
            path: "Functions/AuthKit",
            swiftSettings: strict
        ),
        // Passkeys' ceremonies over AuthKit's store side (`Passkeys`): only the functions that
        // register or check passkeys link it, and with it the WebAuthn checks.
        .target(
            name: "PasskeyKit",
            dependencies: ["AuthKit", "WebAuthn", "JOSE", "GatehouseJSON", "StoreCore"],
            path: "Functions/PasskeyKit",
            swiftSettings: strict
        ),
        // The HTTP edge every HTTP function runs behind: one request type for API Gateway's
        // payload formats 1.0 and 2.0, one error mapping, one error envelope.
        .target(
            name: "HTTPEdge",
            dependencies: [
                "LambdaRuntime", "AuthKit", "GatehouseJSON",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Functions/HTTPEdge",
            swiftSettings: strict
        ),
        // Supabase Auth's protocol at the edge: its error shapes and codes, its JSON for users
        // and sessions, the `apikey` header. The `Supabase*` functions run behind it.
        .target(
            name: "SupabaseEdge",
            dependencies: [
                "HTTPEdge", "AuthKit", "GatehouseJSON", "LambdaRuntime",
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Functions/SupabaseEdge",
            swiftSettings: strict
        ),

        // MARK: Client
        // MARK: Tests
        // Local HTTP servers for tests (a JWKS endpoint, a fake Runtime API), on Hummingbird:
        // test support only, in no product.
        .target(
            name: "TestServers",
            dependencies: [
                "GatehouseJSON",
                "Emulator",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdTLS", package: "hummingbird"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            path: "Tests/Support/TestServers",
            swiftSettings: strict
        ),
        .executableTarget(
            name: "Misbehaving",
            dependencies: [
                "LambdaEvents", "GatehouseJSON", "LambdaRuntime", .product(name: "Logging", package: "swift-log"),
            ],
            path: "Tests/Fixtures/Misbehaving",
            swiftSettings: strict
        ),
        .testTarget(
            name: "LambdaRuntimeTests",
            dependencies: [
                "LambdaEvents",
                "TestServers",
                "GatehouseJSON",
                "LambdaRuntime",
                "Emulator",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Tests/LambdaRuntimeTests",
            resources: [.copy("Events")],
            swiftSettings: strict
        ),
        // Reads Package.swift through `swift package dump-package` (run by the Emulator's
        // ChildProcess).
        .testTarget(
            name: "ArchitectureTests",
            dependencies: ["Emulator"],
            path: "Tests/ArchitectureTests",
            swiftSettings: strict
        ),
        .testTarget(
            name: "GatehouseJSONTests",
            dependencies: ["GatehouseJSON"],
            path: "Tests/GatehouseJSONTests",
            swiftSettings: strict
        ),
        // A passkey authenticator in software, for the WebAuthn and end-to-end tests.
        .target(
            name: "WebAuthnTesting",
            dependencies: [
                "WebAuthn", "JOSE", "GatehouseJSON",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
            ],
            path: "Tests/Support/WebAuthnTesting",
            swiftSettings: strict
        ),
        .testTarget(
            name: "WebAuthnTests",
            dependencies: [
                "WebAuthn", "WebAuthnTesting",
                "GatehouseJSON",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
            ],
            path: "Tests/WebAuthnTests",
            swiftSettings: strict
        ),
        .testTarget(
            name: "JOSETests",
            dependencies: [
                "JOSE",
                "GatehouseJSON",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
            ],
            path: "Tests/JOSETests",
            resources: [.copy("Wycheproof")],
            swiftSettings: strict
        ),
        .testTarget(
            name: "AWSTests",
            dependencies: [
                "AWSSigning", "AWSCalls", "AWSSecrets", "AWSDelivery", "AWSCognito", "AuthKit", "OutboundHTTP",
                "TestServers", "GatehouseJSON", "LambdaRuntime",
            ],
            path: "Tests/AWSTests",
            // botocore's signatures (Vectors/sigv4), read by SigV4VectorTests from the source tree.
            exclude: ["Vectors"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "OutboundHTTPTests",
            dependencies: ["OutboundHTTP", "LambdaRuntime", "TestServers"],
            path: "Tests/OutboundHTTPTests",
            swiftSettings: strict
        ),
        .testTarget(
            name: "JOSEHTTPTests",
            dependencies: [
                "TestServers",
                "JOSE", "JOSEHTTP", "OutboundHTTP", "GatehouseJSON", "Emulator",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTLS", package: "hummingbird"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            path: "Tests/JOSEHTTPTests",
            resources: [.copy("TLS")],
            swiftSettings: strict
        ),
        .testTarget(
            name: "HTTPEdgeTests",
            dependencies: [
                "HTTPEdge", "SupabaseEdge", "LambdaRuntime", "GatehouseJSON", "AuthKit",
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Tests/HTTPEdgeTests",
            swiftSettings: strict
        ),
        .testTarget(
            name: "AuthKitTests",
            dependencies: [
                "AuthKit", "JOSE", "Store", "GatehouseJSON", .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"), "SupabaseImport", "PasskeyKit", "WebAuthn",
                "WebAuthnTesting",
            ],
            path: "Tests/AuthKitTests",
            swiftSettings: strict
        ),
        .executableTarget(
            name: "StoreRacer",
            dependencies: ["Store", "GatehouseJSON", "DynamoDBStore", "AWSSigning", "OutboundHTTP"],
            path: "Tests/Fixtures/StoreRacer",
            swiftSettings: strict
        ),
        .testTarget(
            name: "StoreTests",
            dependencies: [
                "Store", "FunctionStore", "GatehouseJSON", "Emulator", "StoreRacer", "DynamoDBStore", "AWSSigning",
                "OutboundHTTP",
                "TestServers", "Packaging", .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Hummingbird", package: "hummingbird"),
            ],
            path: "Tests/StoreTests",
            swiftSettings: strict
        ),
        .testTarget(
            name: "PackagingTests",
            // Emulator for ChildProcess: the fixtures' compilers are awaited, never waited for.
            dependencies: ["Packaging", "Emulator"],
            path: "Tests/PackagingTests",
            // C sources the tests compile while they run (see CFixture).
            exclude: ["Binaries"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "EmulatorTests",
            // HTTPEdge: the events start-api writes are read back with the functions' own reader.
            dependencies: [
                "HTTPEdge",
                "StoreCore", "TestServers",
                "GatehouseJSON", .product(name: "NIOCore", package: "swift-nio"), "Emulator", "LambdaRuntime",
                .product(name: "NIOEmbedded", package: "swift-nio"), .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            path: "Tests/EmulatorTests",
            swiftSettings: strict
        ),
        .testTarget(
            name: "EndToEndTests",
            // The binaries it runs are dependencies, so even a filtered `swift test` builds them.
            dependencies: [
                "TestServers",
                "WebAuthnTesting", "Emulator", "LambdaRuntime", "GatehouseJSON", "JOSE", "Misbehaving", "Gatehouse",
                "Packaging",
                .product(name: "GatehouseClient", package: "Client"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ] + functions.map { .target(name: $0.name) },
            path: "Tests/EndToEndTests",
            swiftSettings: strict
        ),
    ]
)

package.targets += functions.map { function in
    .executableTarget(
        name: function.name, dependencies: function.dependencies, path: "Functions/\(function.name)",
        swiftSettings: strict)
}
