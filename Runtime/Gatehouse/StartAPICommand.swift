import ArgumentParser
import AuthKit
import DevServer
import Emulator
import Foundation
import LambdaRuntime
import Store

/// `gatehouse start-api`: every route of the template on one local HTTP server, served by warm
/// instances of the real function binaries.
struct StartAPICommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "start-api",
        abstract: "Serve the template's HTTP API locally with the real function binaries.",
        discussion: """
            Builds what is stale, then serves every HttpApi and Api (REST) route of the template. \
            Each request becomes a payload 2.0 or 1.0 event for a warm instance of its function (a \
            new one starts, a cold start, while fewer than ReservedConcurrentExecutions, default \
            10, run). Routes with a Lambda authorizer run it first and reuse its answer per \
            identity for ReauthorizeEvery seconds. Instances idle for --idle-timeout are stopped. Function logs \
            and one access-log line per request go to standard error. Ctrl-C stops every instance.
            """
    )

    @Option(help: "The address to listen on.") var host = "127.0.0.1"
    @Option(help: "The port to listen on.") var port = 3000
    @Option(
        name: .customLong("env-vars"), help: "Environment overrides in SAM's format: {\"Parameters\":{…},\"Name\":{…}}."
    )
    var envVars: String?
    @Flag(name: .customLong("no-build"), help: "Run the binaries as they are; do not build first.")
    var noBuild = false
    @Flag(
        name: .customLong("pass-aws-env"),
        help: "Give functions this shell's AWS credentials (else they get local ones that reach no account).")
    var passAWSEnv = false
    @Flag(
        name: .customLong("no-authorizer-cache"),
        help: "Run the authorizer on every request instead of reusing decisions for ReauthorizeEvery.")
    var noAuthorizerCache = false
    @Flag(
        name: .customLong("disable-authorizer"),
        help: "Serve protected routes without running their authorizer (they get no authorizer context).")
    var disableAuthorizer = false
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

    /// SAM's `--warm-containers` modes.
    enum WarmContainers: String, ExpressibleByArgument, CaseIterable {
        case eager = "EAGER"
        case lazy = "LAZY"
    }

    /// Instances per function (Lambda's `ReservedConcurrentExecutions`; 10 when unset).
    static let defaultConcurrency = 10

    /// The template parameter start-api sets to its own base URL, so values that name the
    /// local API (`ISSUER`, `JWKS_URL`) follow `--host` and `--port`.
    static let baseURLParameter = "ApiBaseUrl"

    /// Template parameters that name deployed resources, emptied for local runs (start-api and
    /// invoke): the signing keys' secret (locally the key file is used).
    static let localParameters = ["SigningKeysSecret": ""]

    func run() async throws {
        ChildProcess.killChildrenOnTermination()
        // Listen first: the address (a free port with --port 0) goes into the template.
        let listener: APIListener
        do {
            listener = try await APIListener.start(host: host, port: port)
        } catch {
            Console.error("error: \(error)")
            throw ExitCode(2)
        }
        let base = "http://\(host):\(listener.port)"
        let (gateway, store) = try await UsageFailure.reporting { try await prepare(baseURL: base) }
        if warmContainers == .eager {
            do {
                try await gateway.prewarm()
            } catch {
                Console.error("error: could not start the instances: \(error)")
                await gateway.stop()
                throw ExitCode(1)
            }
        }
        listener.attach(gateway)
        Console.error(routesTable(gateway, base: base))
        Console.error("Listening on \(base) (Ctrl-C to stop)")
        if sweepInterval > 0, let file = store.file { Self.sweep(file, every: sweepInterval) }
        Self.announceDeliveries(from: store.store)
        if idleTimeout > 0 { Self.reap(gateway, after: idleTimeout, keeping: warmContainers == .eager ? 1 : 0) }
        // Runs until a signal: `killChildrenOnTermination` stops every instance and exits.
        while true { try await Task.sleep(for: .seconds(3600)) }
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

    private func prepare(baseURL: String) async throws -> (LocalAPIGateway, ProjectStore) {
        guard sweepInterval >= 0, sweepInterval.isFinite else {
            throw UsageFailure("--sweep-interval must be 0 (never) or a number of seconds")
        }
        guard idleTimeout >= 0, idleTimeout.isFinite else {
            throw UsageFailure("--idle-timeout must be 0 (never) or a number of seconds")
        }
        guard ["debug", "release"].contains(configuration) else {
            throw UsageFailure("--configuration must be debug or release")
        }
        let provider = try devProvider(baseURL: baseURL)
        let template = try Template.load(
            path: project.template,
            parameters: provider.templateParameters.merging(Self.localParameters) { $1 }
                .merging([Self.baseURLParameter: baseURL]) { $1 })
        var local = LocalFunctions(project: project, template: template)
        local.configuration = configuration
        local.packaged = packaged.folder(project: project)
        try buildIfNeeded(local, functions: LocalAPI.functions(in: template), template: template)
        if disableAuthorizer, template.routes.contains(where: { $0.authorizer != nil }) {
            Console.error(
                "warning: --disable-authorizer: protected routes run without their authorizer and get no authorizer context"
            )
        }
        // Opened once: the functions' variables come from it, and it is the one start-api watches.
        let store = try await project.store(for: template)
        var options = try options(local, store: store)
        options.localRoutes = [provider, DemoApp(baseURL: baseURL)]
        let gateway = try LocalAPI.make(template: template, options: options)
        if template.tables.contains(where: { $0.name == AppRegistry.table }) {
            try await AppRegistry(store: store.store).pointDemoApp(at: baseURL)
        }
        return (gateway, store)
    }

    /// The dev OIDC provider on this server, with its key beside the store and a client secret
    /// made for this run (the template's `OidcClientSecret` gets it).
    private func devProvider(baseURL: String) throws -> DevOIDCProvider {
        DevOIDCProvider(
            baseURL: baseURL, key: try DevProviderKey.loadOrCreate(in: project.stateDirectory),
            clientSecret: RandomToken.urlSafe(byteCount: 24))
    }

    /// Builds the package when a function's binary is missing (not with `--no-build` or a package).
    private func buildIfNeeded(_ local: LocalFunctions, functions: [FunctionDefinition], template: Template) throws {
        guard !noBuild, local.packaged == nil, let root = SwiftBuilder.packageRoot(containing: template.directory),
            functions.contains(where: {
                !FileManager.default.isExecutableFile(atPath: $0.bootstrapPath(templateDirectory: template.directory))
            })
        else { return }
        try SwiftBuilder(packageDirectory: root, configuration: configuration).buildAll()
    }

    /// The local API's options from the command line.
    private func options(_ local: LocalFunctions, store: ProjectStore) throws -> LocalAPI.Options {
        var options = LocalAPI.Options { function in try local.executable(for: function, build: false) }
        options.defaults = try local.defaults(store: store)
        options.overrides = try envVars.map(EnvironmentOverrides.load(path:)) ?? EnvironmentOverrides()
        options.host = LambdaEnvironment.host(ProcessInfo.processInfo.environment, passingCredentials: passAWSEnv)
        options.defaultConcurrency = Self.defaultConcurrency
        options.cachesAuthorizerAnswers = !noAuthorizerCache
        options.authorizersEnabled = !disableAuthorizer
        options.notice = { Console.error($0) }
        options.log = { Console.error($0) }
        return options
    }

    /// The routes, one a line, with their function and authorizer.
    func routesTable(_ gateway: LocalAPIGateway, base: String) -> String {
        let rows = gateway.routes.routes.sorted { ($0.path, $0.method) < ($1.path, $1.method) }.map { route in
            let key = route.path == "$default" ? "$default" : "\(route.method) \(base)\(route.path)"
            let guarded =
                route.authorizer.map { disableAuthorizer ? "  (authorizer \($0) disabled)" : "  (authorizer \($0))" }
                ?? ""
            // HTTP API with payload 2.0 goes unsaid: it is the usual case.
            let kind =
                route.kind == .rest
                ? " [REST]" : route.payloadFormat == .v2 ? "" : " [payload \(route.payloadFormat)]"
            return "  \(key)  →  \(route.function)\(kind)\(guarded)"
        }
        let local = gateway.localRoutes.flatMap(\.routeDescriptions).map { "  \($0)" }
        return (["Routes:"] + rows + ["Dev routes (start-api only, never deployed):"] + local).joined(separator: "\n")
    }
}
