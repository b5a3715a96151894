import ArgumentParser
import Emulator
import Foundation
import Packaging

/// `gatehouse package`: one deployable zip per function, checked against the Lambda image it
/// targets, and `dist/template.json` pointing at them.
struct PackageCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "package",
        abstract: "Build each function with a static Swift standard library and zip it for Lambda.",
        discussion: """
            For each function of the template (or those named): a build with the Swift standard \
            library linked statically, stripped and zipped as bootstrap (mode 0755) with the \
            shared libraries the target image lacks in lib/. The command fails, naming the \
            symbols or libraries, when a binary needs a newer glibc or libstdc++ than the image \
            has, a library that cannot be bundled, or when a zip is over 50 MB. It writes \
            OUTPUT/template.json with each CodeUri at its zip, for `sam deploy --template-file`.
            """
    )

    @Argument(help: "Functions to package (default: every function of the template).")
    var names: [String] = []

    @Option(help: "Where the zips and the packaged template go (default: dist beside the template).")
    var output: String?

    @Option(help: "debug or release.")
    var configuration = "release"

    @Option(help: "The Lambda image: al2023 (provided.al2023) or al2 (provided.al2).")
    var target = "al2023"

    @Flag(name: .customLong("no-build"), help: "Package the binaries as they are built; do not build first.")
    var noBuild = false

    @Flag(help: "Print each bootstrap's size by module in full (default: the five largest).")
    var sizes = false

    @OptionGroup var project: ProjectOptions

    /// What every packaged build adds:
    /// - the static standard library, with the two libraries Swift 6.3's static Foundation
    ///   needs and does not name itself (its link fails with undefined `BigString` and
    ///   `_stringshims_*` symbols otherwise);
    /// - the glibc and libstdc++ compatibility wraps of Runtime/GlibcCompat, linked with lld:
    ///   gold binds the wrap's versioned `hypot@GLIBC_2.2.5` back to the wrap itself, a call to
    ///   itself;
    /// - no unwind tables (`UnwindTables`): a tenth of every zip.
    static let buildArguments = [
        "--static-swift-stdlib", "-Xswiftc", "-use-ld=lld", "-Xlinker", "--wrap=hypot", "-Xlinker", "--wrap=hypotf",
        "-Xlinker", "--wrap=_ZNSt18condition_variable4waitERSt11unique_lockISt5mutexE",
        "-Xlinker", "-l_FoundationCollections", "-Xlinker", "-l_FoundationCShims",
        "-Xlinker", "--no-export-dynamic",
    ]

    func run() async throws {
        let (template, image, functions) = try await UsageFailure.reporting {
            () async throws -> (Template, LambdaTarget, [FunctionDefinition]) in
            guard ["debug", "release"].contains(configuration) else {
                throw UsageFailure("--configuration must be debug or release")
            }
            guard let image = LambdaTarget(rawValue: target) else {
                throw UsageFailure("--target must be al2023 or al2")
            }
            let template = try project.loadTemplate()
            let chosen = names.isEmpty ? template.functions.keys.sorted() : names
            return (template, image, try chosen.map { try template.function(named: $0) })
        }
        guard let root = SwiftBuilder.packageRoot(containing: template.directory) else {
            Console.error("error: no Package.swift at or above \(template.directory) to build from")
            throw ExitCode(2)
        }
        let script = try await UsageFailure.reporting {
            noBuild ? UnwindTables.scriptPath(packageDirectory: root) : try UnwindTables.write(packageDirectory: root)
        }
        let builder = SwiftBuilder(
            packageDirectory: root, configuration: configuration,
            extraArguments: Self.buildArguments + UnwindTables.linkerArguments(script: script))
        let output = self.output ?? "\(project.projectDirectory)/dist"
        // Messages name the folder as the user would type it.
        let folder = project.template.split(separator: "/").dropLast().joined(separator: "/")
        let shown = self.output ?? (folder.isEmpty ? "dist" : "\(folder)/dist")
        let packager = FunctionPackager(
            target: image, output: output, checksExceptionCatching: configuration == "release")
        let budgets = try await UsageFailure.reporting {
            try SizeBudgets(path: "\(project.projectDirectory)/package-budgets.json")
        }
        let start = ContinuousClock.now
        var reports: [FunctionPackager.Report] = []
        var failures: [String] = []
        for function in functions {
            let began = ContinuousClock.now
            do {
                if !noBuild {
                    Console.error(
                        "\(function.name): building \(function.productName) (\(configuration), static stdlib)…")
                    try builder.build(product: function.productName)
                }
                let report = try packager.package(
                    name: function.name, binary: builder.binaryPath(product: function.productName))
                reports.append(report)
                Console.error(SizeTable.lines(report.sizes, limit: sizes ? nil : 5, indent: "  "))
                if let over = budgets.violation(
                    function: function.name, configuration: configuration, zipBytes: report.zipBytes)
                {
                    failures.append(function.name)
                    Console.error("\(function.name): FAILED: \(over)")
                }
                Console.error(
                    "\(function.name): \(Self.megabytes(report.zipBytes)) zip, \(Self.megabytes(report.binaryBytes)) bootstrap, glibc \(report.glibcFloor.map(Self.version) ?? "-"), \(String(format: "%.1f", (ContinuousClock.now - began).seconds)) s"
                )
            } catch {
                failures.append(function.name)
                Console.error("\(function.name): FAILED: \(error)")
            }
        }
        let missing = try PackagedTemplate.write(
            template: project.template, output: output, target: image,
            architecture: reports.first.map { $0.machine == 183 ? "arm64" : "x86_64" } ?? Self.buildArchitecture)
        Console.error(summary(reports, total: (ContinuousClock.now - start).seconds))
        Console.error(
            "Wrote \(shown)/template.json; deploy with: sam deploy --template-file \(shown)/template.json --guided")
        if !missing.isEmpty {
            Console.error("warning: \(shown)/template.json: no zip yet for \(missing.joined(separator: ", "))")
        }
        if !failures.isEmpty {
            Console.error("error: \(failures.count) of \(functions.count) failed: \(failures.joined(separator: ", "))")
            throw ExitCode(1)
        }
    }

    /// The table at the end: one row per function.
    func summary(_ reports: [FunctionPackager.Report], total: Double) -> String {
        var rows = ["| function | bootstrap | zip | glibc floor | bundled |", "|---|---:|---:|---|---|"]
        for report in reports {
            rows.append(
                "| \(report.function) | \(Self.megabytes(report.binaryBytes)) | \(Self.megabytes(report.zipBytes)) | \(report.glibcFloor.map(Self.version) ?? "-") | \(report.bundled.isEmpty ? "-" : report.bundled.joined(separator: ", ")) |"
            )
        }
        return (rows + ["\(reports.count) packaged in \(String(format: "%.1f", total)) s"]).joined(separator: "\n")
    }

    /// This machine's architecture, the builds' when none was packaged to read it from.
    #if arch(arm64)
    static let buildArchitecture = "arm64"
    #else
    static let buildArchitecture = "x86_64"
    #endif

    static func megabytes(_ bytes: Int) -> String { String(format: "%.1f MB", Double(bytes) / 1_000_000) }

    static func version(_ version: SymbolVersion) -> String { version.numbers.map(String.init).joined(separator: ".") }
}
