import Foundation

/// A local API assembled from a template: its routes, a pool of warm instances for each
/// function the routes and their authorizers run, and the authorizers. `gatehouse start-api`
/// and the tests build it the same way.
public enum LocalAPI {
    /// How the API's functions run.
    public struct Options: Sendable {
        /// The binary to run for a function (built, or unpacked from a package).
        public var executable: @Sendable (FunctionDefinition) throws -> String
        /// Variables every function gets unless the template or `overrides` set them.
        public var defaults: [String: String] = [:]
        /// `--env-vars`: set over the template's variables.
        public var overrides = EnvironmentOverrides()
        /// What the host's environment passes on (see `LambdaEnvironment.host`).
        public var host: [String: String] = [:]
        /// Instances per function when the template sets no `ReservedConcurrentExecutions`.
        public var defaultConcurrency = 10
        /// False: run the authorizer on every request (`--no-authorizer-cache`).
        public var cachesAuthorizerAnswers = true
        /// False: protected routes run without their authorizer (`--disable-authorizer`).
        public var authorizersEnabled = true
        /// Routes the emulator answers itself when no template route matches (see `LocalRoutes`).
        public var localRoutes: [any LocalRoutes] = []
        /// Where instance notices (a cold start, a rebuilt binary) go.
        public var notice: @Sendable (String) -> Void = { _ in }
        /// Where the access log goes, one line per request.
        public var log: @Sendable (String) -> Void = { _ in }

        public init(executable: @escaping @Sendable (FunctionDefinition) throws -> String) {
            self.executable = executable
        }
    }

    /// The functions the template's routes and their authorizers run, sorted by name. Checks
    /// the routes first, so that a template that cannot be served is refused before anything
    /// is built for it.
    public static func functions(in template: Template) throws -> [FunctionDefinition] {
        try functions(in: template, routes: routeTable(for: template))
    }

    /// The gateway for `template`'s routes. No instance starts until a request (or `prewarm`).
    /// With `sharing`, the routes' functions run on those pools (the ones a Lambda endpoint on
    /// the same emulator uses, `lambdaGateway`) instead of pools of their own.
    public static func make(
        template: Template, options: Options, sharing shared: [String: FunctionPool] = [:]
    ) throws -> LocalAPIGateway {
        let table = try routeTable(for: template)
        var pools: [String: FunctionPool] = [:]
        for function in try functions(in: template, routes: table) {
            pools[function.name] = try shared[function.name] ?? pool(for: function, options: options)
        }
        return LocalAPIGateway(
            routes: table, pools: pools, authorizers: template.authorizers,
            cache: options.cachesAuthorizerAnswers ? AuthorizerCache(now: { Date().timeIntervalSince1970 }) : nil,
            authorizersEnabled: options.authorizersEnabled, localRoutes: options.localRoutes,
            jwtAuthorizers: template.jwtAuthorizers, log: options.log)
    }

    /// A pool for every function of `template`, by name: what `lambdaGateway` serves.
    public static func pools(template: Template, options: Options) throws -> [String: FunctionPool] {
        try template.functions.mapValues { try pool(for: $0, options: options) }
    }

    /// A pool for each of `functions`, by name (one a local Lambda endpoint serves alone, the
    /// access-token hook's).
    public static func pools(for functions: [FunctionDefinition], options: Options) throws -> [String: FunctionPool] {
        var pools: [String: FunctionPool] = [:]
        for function in functions { pools[function.name] = try pool(for: function, options: options) }
        return pools
    }

    /// The Lambda Invoke API (`LambdaInvokeAPI`) over `pools`: no routes of the template, any
    /// function by name, on the same warm instances and limits as the local API's.
    public static func lambdaGateway(pools: [String: FunctionPool], options: Options) -> LocalAPIGateway {
        LocalAPIGateway(routes: .empty, pools: pools, localRoutes: [LambdaInvokeAPI()], log: options.log)
    }

    /// The template's routes, checked: no two the same, at least one.
    private static func routeTable(for template: Template) throws -> RouteTable {
        let table = try RouteTable(routes: template.routes)
        guard !table.routes.isEmpty else { throw LocalAPIError.noRoutes(template: template.path) }
        return table
    }

    private static func functions(in template: Template, routes: RouteTable) throws -> [FunctionDefinition] {
        let used = routes.routes.compactMap(\.authorizer).compactMap { template.authorizers[$0]?.function }
        return try Set(routes.routes.map(\.function) + used).sorted().map { try template.function(named: $0) }
    }

    private static func pool(for function: FunctionDefinition, options: Options) throws -> FunctionPool {
        let executable = try options.executable(function)
        let taskRoot = URL(fileURLWithPath: executable).deletingLastPathComponent().path
        let variables = options.overrides.variables(for: function.name)
        return FunctionPool(
            function: function, executable: executable,
            limit: function.reservedConcurrency ?? options.defaultConcurrency,
            notice: options.notice
        ) { runtimeAPI in
            LambdaEnvironment.make(
                function: function, runtimeAPI: runtimeAPI, taskRoot: taskRoot, host: options.host,
                defaults: options.defaults, overrides: variables)
        }
    }
}

/// A template that cannot be served as a local API.
public enum LocalAPIError: Error, Equatable, CustomStringConvertible {
    /// It declares no `HttpApi` or `Api` event.
    case noRoutes(template: String)

    public var description: String {
        switch self {
        case .noRoutes(let template): "\(template) declares no HttpApi or Api route"
        }
    }
}
