import ArgumentParser
import Emulator
import Foundation
import Hummingbird
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
    var binary: String = ""

    @Flag(help: "Measure the floor instead: spawning and reaping /bin/true the same way.")
    var floor = false

    @Option(help: "The store file to hand to the function (GATEHOUSE_STORE).")
    var store: String?

    @Option(help: "A JWKS document to serve on a local port and name in JWKS_URL (for the Authorizer).")
    var serveJwks: String?

    @Option(help: "The event file.")
    var event: String = "events/jwks.json"

    @Option(help: "Cold starts to measure.")
    var runs: Int = 20

    @Option(help: "The signing key file to hand to the function.")
    var signingKeysFile: String = ".gatehouse/signing-keys.json"

    @Option(name: .customLong("env"), help: "NAME=VALUE for the function's environment (repeatable).")
    var extraEnvironment: [String] = []

    @Flag(
        help: """
            Deployed-style: the function's environment is Lambda's own variables and the --env ones \
            only: no template variables, no local key file, no local issuer (the caller resolves the \
            template as CloudFormation would; see Benchmarks/deployed-cold-start.py).
            """)
    var deployed = false

    @Option(help: "Unmeasured cold starts before the measured ones (they warm the page cache).")
    var warmups: Int = 1

    @Option(help: "Write the last measured response's payload to this file (to check it succeeded).")
    var responseFile: String?

    func run() async throws {
        if floor { return try await measureFloor() }
        // The parameters every local command sets (the CLI's `ServeOptions.localParameters`):
        // the template gives delivery no default, locally the key file is used, and the issuer is
        // the local address (deployed, an SSM parameter read at cold start).
        let local = [
            "SigningKeysSecret": "", "EmailDelivery": "outbox", "SmsDelivery": "outbox",
            "ApiBaseUrl": "http://127.0.0.1:3000",
        ]
        // Deployed, the template is read for the function's name, memory, timeout and handler only.
        let definition = try Template.load(path: template, parameters: local).function(named: function)
        let payload = ByteBuffer(bytes: try Data(contentsOf: URL(fileURLWithPath: event)))
        let executable = URL(fileURLWithPath: binary).standardizedFileURL.path
        let keys = URL(fileURLWithPath: signingKeysFile).standardizedFileURL.path
        let taskRoot = URL(fileURLWithPath: executable).deletingLastPathComponent().path
        var overrides: [String: String] = [:]
        if let store { overrides["GATEHOUSE_STORE"] = URL(fileURLWithPath: store).standardizedFileURL.path }
        for pair in extraEnvironment {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            if parts.count == 2 { overrides[String(parts[0])] = String(parts[1]) }
        }
        var server: JWKSServer?
        if let serveJwks {
            let document = ByteBuffer(bytes: try Data(contentsOf: URL(fileURLWithPath: serveJwks)))
            server = try await JWKSServer.start(document: document)
            overrides["JWKS_URL"] = "http://127.0.0.1:\(server!.port)/.well-known/jwks.json"
        }
        let variables = overrides
        let invoker = LocalInvoker(function: definition, executable: executable) { runtimeAPI in
            deployed
                ? LambdaEnvironment.make(
                    function: definition, runtimeAPI: runtimeAPI, taskRoot: taskRoot, host: [:], template: [:],
                    overrides: variables)
                : LambdaEnvironment.make(
                    function: definition, runtimeAPI: runtimeAPI, taskRoot: taskRoot, host: [:],
                    defaults: ["SIGNING_KEYS_FILE": keys], overrides: variables
                )
        }
        defer { if let server { Task { await server.stop() } } }
        // Unmeasured runs (one by default) warm the page cache, as a deployed binary's would be.
        for _ in 0..<warmups { _ = try await invoker.invoke(payload: payload) }
        var coldStarts: [Double] = []
        var inits: [Double] = []
        var memory: [Int] = []
        for _ in 0..<runs {
            let result = try await invoker.invoke(payload: payload)
            guard !result.outcome.isError else {
                throw ValidationError("the function failed: \(String(buffer: result.payload))")
            }
            coldStarts.append(result.spawnToResult.milliseconds)
            inits.append(result.report.initDurationMilliseconds ?? 0)
            memory.append(result.report.maxMemoryUsedMB)
            if let responseFile {
                try Data(result.payload.readableBytesView).write(to: URL(fileURLWithPath: responseFile))
            }
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

    /// The floor of process start-up on this machine: `/bin/true` spawned and reaped through
    /// the same `ChildProcess` the invoker uses, timed from spawn to exit.
    func measureFloor() async throws {
        var times: [Double] = []
        for index in 0...runs {
            let start = ContinuousClock.now
            let process = try ChildProcess(executable: "/bin/true", environment: [:], directory: "/")
            _ = await process.terminated()
            let elapsed = ContinuousClock.now - start
            // The first run warms the page cache and is not counted, as for the functions.
            if index > 0 {
                times.append(elapsed.milliseconds)
            }
        }
        print("binary            /bin/true")
        print("runs              \(runs)")
        print(
            "cold start median \(String(format: "%.2f", median(times))) ms (min \(String(format: "%.2f", times.min()!)), max \(String(format: "%.2f", times.max()!)))"
        )
    }

    func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        return sorted.count % 2 == 1
            ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    }
}
