import Foundation

/// Builds function products with SwiftPM and finds their binaries.
public struct SwiftBuilder: Sendable {
    /// The package root (where Package.swift is).
    public let packageDirectory: String
    /// `debug` or `release`.
    public let configuration: String
    /// More `swift build` arguments (`--static-swift-stdlib`, linker flags).
    public let extraArguments: [String]

    public init(packageDirectory: String, configuration: String = "debug", extraArguments: [String] = []) {
        self.packageDirectory = packageDirectory
        self.configuration = configuration
        self.extraArguments = extraArguments
    }

    /// The nearest folder at or above `directory` that holds a Package.swift; nil when there is none.
    public static func packageRoot(containing directory: String) -> String? {
        var url = URL(fileURLWithPath: directory).standardizedFileURL
        while true {
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) {
                return url.path
            }
            let parent = url.deletingLastPathComponent()
            if parent.path == url.path { return nil }
            url = parent
        }
    }

    /// Where a product's binary is after a build.
    public func binaryPath(product: String) -> String {
        "\(packageDirectory)/.build/\(configuration)/\(product)"
    }

    /// Runs `swift build --product NAME`; its progress goes to standard error. SwiftPM itself
    /// decides what is stale, so an up-to-date product costs one quick no-op build.
    public func build(product: String) throws {
        try run(["--product", product], describing: product)
    }

    /// Runs `swift build` for every product of the package at once: one no-op check instead of
    /// one per function when nothing changed.
    public func buildAll() throws {
        try run([], describing: "the package")
    }

    private func run(_ arguments: [String], describing product: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["swift", "build"] + arguments + ["--configuration", configuration] + extraArguments
        process.currentDirectoryURL = URL(fileURLWithPath: packageDirectory)
        process.standardOutput = FileHandle.standardError
        process.standardError = FileHandle.standardError
        process.standardInput = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            throw SwiftBuilderError.cannotRun(reason: "\(error)")
        }
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw SwiftBuilderError.failed(product: product, status: process.terminationStatus)
        }
    }
}

/// A build that did not produce its product.
public enum SwiftBuilderError: Error, CustomStringConvertible {
    case cannotRun(reason: String)
    case failed(product: String, status: Int32)

    public var description: String {
        switch self {
        case .cannotRun(let reason): "cannot run swift build: \(reason)"
        case .failed(let product, let status): "swift build of \(product) failed (exit status \(status))"
        }
    }
}
