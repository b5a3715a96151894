import ArgumentParser
import AuthKit
import Emulator
import Foundation
import LambdaRuntime
import Store

/// What `start-api` and `start-lambda` share: how the functions are built, found and
/// configured, and how their instances live.
struct ServeOptions: ParsableArguments {
    @Option(
        name: [.customShort("n"), .customLong("env-vars")],
        help: "Environment overrides in SAM's format: {\"Parameters\":{…},\"Name\":{…}}.")
    var envVars: String?
    @Flag(name: .customLong("no-build"), help: "Run the binaries as they are; do not build first.")
    var noBuild = false
    @Flag(
        name: .customLong("pass-aws-env"),
        help: "Give functions this shell's AWS credentials (else they get local ones that reach no account).")
    var passAWSEnv = false
    @Option(
        name: .customLong("sweep-interval"),
        help: "Seconds between sweeps of expired items from the store (0: never).")
    var sweepInterval: Double = 60
    @Option(
        name: .customLong("warm-containers"),
        help:
            "EAGER: start one instance of every function at start-up and keep it. LAZY: start instances at their first request."
    )
    var warmContainers: WarmContainers = .lazy
    @Option(
        name: .customLong("idle-timeout"),
        help: "Seconds an instance may wait for an event before it is stopped (0: never).")
    var idleTimeout: Double = 600
    @Option(help: "Which build of the functions to run: debug or release.")
    var configuration = "debug"
    @OptionGroup var project: ProjectOptions
    @OptionGroup var packaged: PackagedOptions
    /// SAM CLI's `-t`: here on the commands SAM CLI has, not on every project command, where a
    /// key such as `gatehouse db get T -starts-with-dash` would read as short options.
    @Option(name: .customShort("t"), help: ArgumentHelp("Short for --template.", valueName: "template"))
    var shortTemplate: String?

    mutating func validate() throws {
        if let shortTemplate { project.template = shortTemplate }
    }

    /// SAM's `--warm-containers` modes.
    enum WarmContainers: String, ExpressibleByArgument, CaseIterable {
        case eager = "EAGER"
        case lazy = "LAZY"
    }

    /// Instances per function (Lambda's `ReservedConcurrentExecutions`; 10 when unset).
    static let defaultConcurrency = 10

    /// Template parameters every local command (start-api, start-lambda, invoke, db, apps, dev…)
    /// sets, before its own (start-api's address) and `--parameter-overrides`: the signing keys'
    /// secret emptied (locally the key file is used, and wins over the public keys' parameter); delivery to the outbox, which a deploy must
    /// choose on purpose (the template gives `EmailDelivery` and `SmsDelivery` no default); and
    /// the issuer, `ApiBaseUrl`, the default local address (deployed, empty means the API's own
    /// URL, read from an SSM parameter that no local run has).
    static let localParameters = [
        "SigningKeysSecret": "", "EmailDelivery": "outbox", "SmsDelivery": "outbox",
        StartAPICommand.baseURLParameter: "http://127.0.0.1:3000",
    ]

    /// Refuses values no server can run with.
    func check() throws(UsageFailure) {
        guard sweepInterval >= 0, sweepInterval.isFinite else {
            throw UsageFailure("--sweep-interval must be 0 (never) or a number of seconds")
        }
        guard idleTimeout >= 0, idleTimeout.isFinite else {
            throw UsageFailure("--idle-timeout must be 0 (never) or a number of seconds")
        }
        guard ["debug", "release"].contains(configuration) else {
            throw UsageFailure("--configuration must be debug or release")
        }
    }

    /// The template with the local parameters, `parameters` and the user's
    /// `--parameter-overrides` (which win) set, and how its functions run.
    func load(parameters: [String: String]) throws -> (Template, LocalFunctions) {
        let template = try Template.load(
            path: project.template,
            parameters: Self.localParameters.merging(parameters) { $1 }.merging(try project.parameters()) { $1 })
        var local = LocalFunctions(project: project, template: template)
        local.configuration = configuration
        local.packaged = packaged.folder(project: project)
        return (template, local)
    }

    /// Builds the package when one of `functions`' binaries is missing (not with `--no-build`
    /// or a package).
    func buildIfNeeded(_ local: LocalFunctions, functions: [FunctionDefinition], template: Template) throws {
        guard !noBuild, local.packaged == nil, let root = SwiftBuilder.packageRoot(containing: template.directory),
            functions.contains(where: {
                !FileManager.default.isExecutableFile(atPath: $0.bootstrapPath(templateDirectory: template.directory))
            })
        else { return }
        try SwiftBuilder(packageDirectory: root, configuration: configuration).buildAll()
    }

    /// The servers' options from the command line: the functions' binaries and environment,
    /// logs to standard error.
    func options(_ local: LocalFunctions, store: ProjectStore) throws -> LocalAPI.Options {
        var options = LocalAPI.Options { function in try local.executable(for: function, build: false) }
        options.defaults = try local.defaults(store: store)
        options.overrides = try envVars.map(EnvironmentOverrides.load(path:)) ?? EnvironmentOverrides()
        options.host = LambdaEnvironment.host(ProcessInfo.processInfo.environment, passingCredentials: passAWSEnv)
        options.defaultConcurrency = Self.defaultConcurrency
        options.notice = { Console.error($0) }
        options.log = { Console.error($0) }
        return options
    }

    /// The background work of a running server: sweeping the store file, announcing the
    /// outbox's deliveries (when `template` has an outbox), stopping idle instances of `gateway`.
    func startHousekeeping(store: ProjectStore, template: Template, gateway: LocalAPIGateway) {
        if sweepInterval > 0, let file = store.file { Self.sweep(file, every: sweepInterval) }
        if template.tables.contains(where: { $0.name == OutboxSender.table }) {
            Self.announceDeliveries(from: store.store)
        }
        if idleTimeout > 0 { Self.reap(gateway, after: idleTimeout, keeping: warmContainers == .eager ? 1 : 0) }
    }

    /// Starts one instance of every function of `gateway` (`--warm-containers EAGER`).
    func prewarm(_ gateway: LocalAPIGateway) async throws {
        guard warmContainers == .eager else { return }
        do {
            try await gateway.prewarm()
        } catch {
            Console.error("error: could not start the instances: \(error)")
            await gateway.stop()
            throw ExitCode(1)
        }
    }

    /// Deletes expired items in the background, as DynamoDB's TTL does (reads never return them
    /// anyway); a line on standard error when there were any.
    static func sweep(_ store: SQLiteStore, every seconds: Double) {
        Task.detached {
            while true {
                try? await Task.sleep(for: .seconds(seconds))
                do {
                    let swept = try await store.sweep()
                    if swept > 0 { Console.error("store: swept \(swept) expired item\(swept == 1 ? "" : "s")") }
                } catch {
                    Console.error("store: sweep failed: \(error)")
                }
            }
        }
    }

    /// One console line per message the functions deliver to the local outbox (a sign-in link
    /// or code), so a developer can click it: the only place besides the outbox it appears.
    static func announceDeliveries(from store: any KeyValueStore) {
        Task.detached {
            do {
                try await OutboxFeed(store: store).follow(to: nil, every: .milliseconds(200), includingPresent: false) {
                    Console.error($0.notice)
                }
            } catch {
                Console.error("outbox: stopped watching: \(error)")
            }
        }
    }

    /// Stops instances that waited `seconds` for an event, looking a few times per that time.
    static func reap(_ gateway: LocalAPIGateway, after seconds: Double, keeping minimum: Int) {
        Task.detached {
            while true {
                try? await Task.sleep(for: .seconds(min(max(seconds / 4, 0.05), 10)))
                await gateway.reapIdle(after: .seconds(seconds), keeping: minimum)
            }
        }
    }
}
