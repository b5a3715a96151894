import ArgumentParser
import AuthKit
import DevServer
import Emulator
import Foundation
import LambdaRuntime
import Store

/// `gatehouse start-api`: every route of the template on one local HTTP server, served by warm
/// instances of the real function binaries; with `--lambda-port`, the Lambda Invoke API beside
/// it on the same instances.
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
            and one access-log line per request go to standard error. Ctrl-C stops every instance. \
            With --lambda-port, the Lambda Invoke API (see start-lambda) listens there too, on the \
            same instances.
            """
    )

    @Option(help: "The address to listen on.") var host = "127.0.0.1"
    @Option(name: [.short, .long], help: "The port to listen on.") var port = 3000
    @Option(
        name: .customLong("lambda-port"),
        help: "Also serve the Lambda Invoke API (as start-lambda does) on this port, on the same instances.")
    var lambdaPort: Int?
    @Flag(
        name: .customLong("no-authorizer-cache"),
        help: "Run the authorizer on every request instead of reusing decisions for ReauthorizeEvery.")
    var noAuthorizerCache = false
    @Flag(
        name: .customLong("disable-authorizer"),
        help: "Serve protected routes without running their authorizer (they get no authorizer context).")
    var disableAuthorizer = false
    @OptionGroup var serve: ServeOptions

    /// The template parameter start-api sets to its own base URL, so values that name the
    /// local API (`ISSUER`, `JWKS_URL`) follow `--host` and `--port`.
    static let baseURLParameter = "ApiBaseUrl"

    func run() async throws {
        ChildProcess.killChildrenOnTermination()
        // Listen first: the address (a free port with --port 0) goes into the template.
        let listener: APIListener
        let lambdaListener: APIListener?
        do {
            listener = try await APIListener.start(host: host, port: port)
            lambdaListener = try await lambdaPort.asyncMap { try await APIListener.start(host: host, port: $0) }
        } catch {
            Console.error("error: \(error)")
            throw ExitCode(2)
        }
        let base = "http://\(host):\(listener.port)"
        let (gateway, lambda, store, template) = try await UsageFailure.reporting {
            try await prepare(baseURL: base, lambda: lambdaListener?.port)
        }
        // Answer first: an authorizer fetches its keys through this API as it starts.
        listener.attach(gateway)
        try await serve.prewarm(gateway)
        await gateway.startAuthorizersEarly()
        Console.error(routesTable(gateway, base: base))
        if let lambdaListener, let lambda {
            lambdaListener.attach(lambda)
            Console.error("Lambda Invoke API on http://\(host):\(lambdaListener.port) (see start-lambda)")
        }
        Console.error("Listening on \(base) (Ctrl-C to stop)")
        serve.startHousekeeping(store: store, template: template, gateway: gateway)
        // Runs until a signal: `killChildrenOnTermination` stops every instance and exits.
        while true { try await Task.sleep(for: .seconds(3600)) }
    }

    /// The gateway, the Lambda Invoke API's (with `lambda`, its port), the store and the template.
    /// An access-token hook of the template runs through the Invoke API (`LocalHook`): `lambda`'s,
    /// or one of its own.
    private func prepare(
        baseURL: String, lambda: Int?
    ) async throws -> (LocalAPIGateway, LocalAPIGateway?, ProjectStore, Template) {
        try serve.check()
        let provider = try devProvider(baseURL: baseURL)
        let (template, local) = try serve.load(
            parameters: provider.templateParameters.merging([Self.baseURLParameter: baseURL]) { $1 })
        let hook = try await LocalHook.start(for: template, serving: lambda, host: host)
        var functions =
            lambda != nil
            ? template.functions.values.sorted { $0.name < $1.name } : try LocalAPI.functions(in: template)
        if let hook, !functions.contains(hook.function) { functions.append(hook.function) }
        try serve.buildIfNeeded(local, functions: functions, template: template)
        if disableAuthorizer, template.routes.contains(where: { $0.authorizer != nil }) {
            Console.error(
                "warning: --disable-authorizer: protected routes run without their authorizer and get no authorizer context"
            )
        }
        // Opened once: the functions' variables come from it, and it is the one start-api watches.
        let store = try await serve.project.store(for: template)
        var options = try serve.options(local, store: store)
        options.defaults.merge(provider.functionVariables) { $1 }
        options.cachesAuthorizerAnswers = !noAuthorizerCache
        options.authorizersEnabled = !disableAuthorizer
        // The demo app's key, for its passkeys' registration through Supabase's routes.
        let demoKey =
            template.tables.contains(where: { $0.name == AppRegistry.table })
            ? try await AppRegistry(store: store.store).app(id: "demo")?.publishableKey : nil
        options.localRoutes = [provider, DemoApp(baseURL: baseURL, publishableKey: demoKey)]
        if let hook { options = hook.pointing(options) }
        let pools =
            lambda != nil
            ? try LocalAPI.pools(template: template, options: options)
            : try LocalAPI.pools(for: hook.map { [$0.function] } ?? [], options: options)
        hook?.serve(pools: pools, options: options)
        let gateway = try LocalAPI.make(template: template, options: options, sharing: pools)
        if template.tables.contains(where: { $0.name == AppRegistry.table }) {
            try await AppRegistry(store: store.store).pointDemoApp(at: baseURL)
        }
        return (gateway, lambda != nil ? LocalAPI.lambdaGateway(pools: pools, options: options) : nil, store, template)
    }

    /// The dev OIDC provider on this server, with its key beside the store and a client secret
    /// made for this run (the functions get it as `OIDC_CLIENT_SECRET`, beside the store's variables).
    private func devProvider(baseURL: String) throws -> DevOIDCProvider {
        DevOIDCProvider(
            baseURL: baseURL, key: try DevProviderKey.loadOrCreate(in: serve.project.stateDirectory),
            clientSecret: RandomToken.urlSafe(byteCount: 24))
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

extension Optional {
    /// `map` with an async, throwing transform.
    func asyncMap<Mapped>(_ transform: (Wrapped) async throws -> Mapped) async rethrows -> Mapped? {
        guard let self else { return nil }
        return try await transform(self)
    }
}
