import AWSSecrets
import AuthKit
import Emulator

/// The access-token hook, run locally through the emulator's own Lambda Invoke API
/// (`LambdaInvokeAPI`, start-lambda's path): when the template's functions name a hook
/// (`ACCESS_TOKEN_HOOK`, from the `AccessTokenHook` parameter) that is a function of the template,
/// every function gets `AWS_ENDPOINT_URL_LAMBDA` pointing at an Invoke API that runs it, as an AWS
/// SDK would be pointed at a local endpoint. A hook that names no function of the template is
/// left alone: the functions call Lambda with local credentials, which fails the sign-in closed.
struct LocalHook {
    /// The hook's function.
    let function: FunctionDefinition
    /// Its own listener (none when it is served beside the HTTP API, `--lambda-port`).
    let listener: APIListener?
    /// What the functions are given as `AWS_ENDPOINT_URL_LAMBDA`.
    let endpoint: String

    /// The template's function its functions name as their access-token hook; nil for none.
    static func function(in template: Template) -> FunctionDefinition? {
        let named = Set(template.functions.values.compactMap { $0.environment[AccessTokenHook.variable] })
        return named.filter { !$0.isEmpty }.sorted().lazy.compactMap {
            LambdaInvokeAPI.function(named: $0, in: template)
        }.first
    }

    /// The hook of `template` served on a listener of its own (127.0.0.1, a free port: the
    /// functions reach plain http only on loopback), or by the Invoke API already listening on
    /// `host`:`port`, which serves every function; nil when it has none.
    static func start(
        for template: Template, serving port: Int? = nil, host: String = "127.0.0.1"
    ) async throws
        -> LocalHook?
    {
        guard let function = function(in: template) else { return nil }
        if let port { return LocalHook(function: function, listener: nil, endpoint: endpoint(host: host, port: port)) }
        let listener = try await APIListener.start(host: "127.0.0.1", port: 0)
        return LocalHook(function: function, listener: listener, endpoint: "http://127.0.0.1:\(listener.port)")
    }

    /// How the functions reach a listener on `host`: on loopback when it listens on every address.
    static func endpoint(host: String, port: Int) -> String {
        ["0.0.0.0", "::", "[::]"].contains(host) ? "http://127.0.0.1:\(port)" : "http://\(host):\(port)"
    }

    /// `options` with every function pointed at the hook's Invoke API.
    func pointing(_ options: LocalAPI.Options) -> LocalAPI.Options {
        var options = options
        options.defaults[LambdaInvoker.endpointVariable] = endpoint
        return options
    }

    /// Serves the hook on its own listener from `pools` (which must hold its pool), and says so;
    /// the gateway that serves it (to stop), nil when it has no listener of its own.
    @discardableResult
    func serve(pools: [String: FunctionPool], options: LocalAPI.Options) -> LocalAPIGateway? {
        guard let listener else { return nil }
        let gateway = LocalAPI.lambdaGateway(pools: pools.filter { $0.key == function.name }, options: options)
        listener.attach(gateway)
        Console.error("Access-token hook \(function.name) on \(endpoint) (Lambda Invoke API, for the functions)")
        return gateway
    }
}
