// swift-tools-version:6.1
import PackageDescription

// A separate package, so the project's own build and tests never wait for it (CI compiles it,
// in debug, and runs none of it). Build and run in release:
//   swift run -c release --package-path Benchmarks cold-start --help
let package = Package(
    name: "gatehouse-benchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "gatehouse", path: ".."),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.5.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1", traits: []),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
    ],
    targets: [
        .executableTarget(
            name: "ceiling",
            dependencies: [
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Sources/Ceiling"
        ),
        .executableTarget(
            name: "cold-start",
            dependencies: [
                .product(name: "Emulator", package: "gatehouse"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            path: "Sources/ColdStart"
        ),
        .executableTarget(
            name: "store-ops",
            dependencies: [
                .product(name: "Store", package: "gatehouse"),
                .product(name: "GatehouseJSON", package: "gatehouse"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ],
            path: "Sources/StoreOps"
        ),
        .executableTarget(
            name: "dynamodb-ops",
            dependencies: [
                .product(name: "DynamoDBStore", package: "gatehouse"),
                .product(name: "StoreCore", package: "gatehouse"),
                .product(name: "AWSSigning", package: "gatehouse"),
                .product(name: "GatehouseJSON", package: "gatehouse"),
            ],
            path: "Sources/DynamoDBOps"
        ),
        .executableTarget(
            name: "password-hash",
            dependencies: [.product(name: "AuthKit", package: "gatehouse")],
            path: "Sources/PasswordHash"
        ),
        .executableTarget(
            name: "event-decode",
            dependencies: [
                .product(name: "LambdaRuntime", package: "gatehouse"),
                .product(name: "HTTPEdge", package: "gatehouse"),
                .product(name: "GatehouseJSON", package: "gatehouse"),
            ],
            path: "Sources/EventDecode"
        ),
        .executableTarget(
            name: "key-load",
            dependencies: [.product(name: "JOSE", package: "gatehouse")],
            path: "Sources/KeyLoad"
        ),
        .executableTarget(
            name: "sessions",
            dependencies: [
                .product(name: "AuthKit", package: "gatehouse"),
                .product(name: "Store", package: "gatehouse"),
                .product(name: "JOSE", package: "gatehouse"),
                .product(name: "GatehouseJSON", package: "gatehouse"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
            ],
            path: "Sources/Sessions"
        ),
        // What the interleaved benchmarks share: the clock, the alternating runner, medians.
        .target(name: "Interleaving", path: "Sources/Interleaving"),
        .executableTarget(
            name: "session-check",
            dependencies: [
                "Interleaving",
                .product(name: "AuthKit", package: "gatehouse"),
                .product(name: "Store", package: "gatehouse"),
                .product(name: "JOSE", package: "gatehouse"),
                .product(name: "GatehouseJSON", package: "gatehouse"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
            ],
            path: "Sources/SessionCheck"
        ),
        .executableTarget(
            name: "issuer-routing",
            dependencies: [
                "Interleaving",
                .product(name: "AuthKit", package: "gatehouse"),
                .product(name: "JOSE", package: "gatehouse"),
                .product(name: "GatehouseJSON", package: "gatehouse"),
            ],
            path: "Sources/IssuerRouting"
        ),
        .executableTarget(
            name: "jwt-verify",
            dependencies: [
                "Interleaving",
                .product(name: "JOSE", package: "gatehouse"),
                .product(name: "GatehouseJSON", package: "gatehouse"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
            ],
            path: "Sources/JWTVerify"
        ),
    ]
)
