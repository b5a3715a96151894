import ArgumentParser
import Emulator
import Foundation
import NIOCore

/// Cold start of a function binary: from spawning the process to its response reaching the
/// emulator's Runtime API, through the same `LocalInvoker` that `gatehouse invoke` uses.
@main
struct ColdStart: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cold-start",
        abstract: "Median cold start (spawn → response at the emulator) of a function binary."
    )

    @Option(help: "The template that defines the function.")
    var template: String = "template.json"

    @Option(help: "The function's logical id.")
    var function: String = "Jwks"

    @Option(help: "The binary to run, e.g. .build/release/Jwks.")
    var binary: String

    @Option(help: "The event file.")
    var event: String = "events/jwks.json"

    @Option(help: "Cold starts to measure.")
    var runs: Int = 20

    @Option(help: "The signing key file to hand to the function.")
    var signingKeysFile: String = ".gatehouse/signing-keys.json"

    func run() async throws {
        let definition = try Template.load(path: template).function(named: function)
        let payload = ByteBuffer(bytes: try Data(contentsOf: URL(fileURLWithPath: event)))
        let executable = URL(fileURLWithPath: binary).standardizedFileURL.path
        let keys = URL(fileURLWithPath: signingKeysFile).standardizedFileURL.path
        let taskRoot = URL(fileURLWithPath: executable).deletingLastPathComponent().path
        let invoker = LocalInvoker(function: definition, executable: executable) { runtimeAPI in
            LambdaEnvironment.make(
                function: definition, runtimeAPI: runtimeAPI, taskRoot: taskRoot, host: [:],
                defaults: ["SIGNING_KEYS_FILE": keys]
            )
        }
        // One unmeasured run warms the page cache, as a deployed binary's would be.
        _ = try await invoker.invoke(payload: payload)
        var coldStarts: [Double] = []
        var inits: [Double] = []
        var memory: [Int] = []
        for _ in 0..<runs {
            let result = try await invoker.invoke(payload: payload)
            guard !result.outcome.isError else {
                throw ValidationError("the function failed: \(String(buffer: result.payload))")
            }
            coldStarts.append(
                Double(result.spawnToResult.components.attoseconds) / 1e15 + Double(
                    result.spawnToResult.components.seconds) * 1000)
            inits.append(result.report.initDurationMilliseconds ?? 0)
            memory.append(result.report.maxMemoryUsedMB)
        }
        func median(_ values: [Double]) -> Double {
            let sorted = values.sorted()
            return sorted.count % 2 == 1
                ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
        }
        let attributes = try FileManager.default.attributesOfItem(atPath: executable)
        let size = (attributes[.size] as? Int) ?? 0
        print("binary            \(executable)")
        print("binary size       \(String(format: "%.1f", Double(size) / 1_048_576)) MiB")
        print("runs              \(runs)")
        print(
            "cold start median \(String(format: "%.2f", median(coldStarts))) ms (min \(String(format: "%.2f", coldStarts.min()!)), max \(String(format: "%.2f", coldStarts.max()!)))"
        )
        print("init median       \(String(format: "%.2f", median(inits))) ms (spawn → first /next)")
        print("max memory used   \(memory.max()!) MB")
    }
}
