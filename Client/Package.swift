// swift-tools-version:6.0
import PackageDescription

// The library an app links, in a package of its own so that it declares the platforms its code
// needs (`URLSession.data(for:)` with async/await: iOS 15 / macOS 12), not the server's. It uses
// Foundation only, and has no dependency.
let package = Package(
    name: "GatehouseClient",
    platforms: [.iOS(.v15), .macOS(.v12), .tvOS(.v15), .watchOS(.v8), .visionOS(.v1)],
    products: [
        .library(name: "GatehouseClient", targets: ["GatehouseClient"])
    ],
    targets: [
        .target(
            name: "GatehouseClient",
            swiftSettings: [
                .enableUpcomingFeature("ExistentialAny"),
                .enableUpcomingFeature("MemberImportVisibility"),
            ]
        )
    ],
    swiftLanguageModes: [.v6]
)
