import ArgumentParser
import Emulator
import Foundation

/// `gatehouse start-lambda`: the Lambda Invoke API on warm instances of the template's
/// functions, for the AWS CLI, boto3 and the AWS SDKs (`--endpoint-url`).
struct StartLambdaCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "start-lambda",
        abstract: "Serve the Lambda Invoke API locally with the real function binaries.",
        discussion: """
            Like sam local start-lambda: POST /2015-03-31/functions/{name}/invocations runs the \
            template's function {name} (a name, an ARN, $LATEST only) on a warm instance, with \
            InvocationType RequestResponse, Event (202, in the background) or DryRun (204), and \
            X-Amz-Log-Type Tail (the invocation's last 4 KB of log in X-Amz-Log-Result). Point a \
            client at it with --endpoint-url http://127.0.0.1:3001 (AWS CLI) or \
            endpoint_url=... (boto3). SigV4 signatures are accepted without being checked. \
            start-api --lambda-port N serves it beside the HTTP API, on the same instances.
            """
    )

    @Option(help: "The address to listen on.") var host = "127.0.0.1"
    @Option(name: [.short, .long], help: "The port to listen on.") var port = 3001
    @OptionGroup var serve: ServeOptions

    func run() async throws {
        ChildProcess.killChildrenOnTermination()
        let listener: APIListener
        do {
            listener = try await APIListener.start(host: host, port: port)
        } catch {
            Console.error("error: \(error)")
            throw ExitCode(2)
        }
        let base = "http://\(host):\(listener.port)"
        let (gateway, store, template) = try await UsageFailure.reporting {
            try serve.check()
            let (template, local) = try serve.load(parameters: [StartAPICommand.baseURLParameter: base])
            let functions = template.functions.values.sorted { $0.name < $1.name }
            try serve.buildIfNeeded(local, functions: functions, template: template)
            let store = try await serve.project.store(for: template)
            var options = try serve.options(local, store: store)
            // An access-token hook of the template runs here too, through this same API.
            if let hook = try await LocalHook.start(for: template, serving: listener.port, host: host) {
                options = hook.pointing(options)
            }
            return (
                LocalAPI.lambdaGateway(
                    pools: try LocalAPI.pools(template: template, options: options), options: options),
                store, template
            )
        }
        try await serve.prewarm(gateway)
        listener.attach(gateway)
        Console.error(
            (["Functions (POST \(base)/2015-03-31/functions/{name}/invocations):"]
                + gateway.pools.keys.sorted().map { "  \($0)" }).joined(separator: "\n"))
        Console.error("Listening on \(base) (Ctrl-C to stop)")
        serve.startHousekeeping(store: store, template: template, gateway: gateway)
        while true { try await Task.sleep(for: .seconds(3600)) }
    }
}
