import ArgumentParser
import AuthKit
import Emulator
import Foundation
import JOSE
import LambdaRuntime
import NIOCore
import Store

/// `gatehouse invoke NAME`: one cold invocation of a function, response on standard output.
struct InvokeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "invoke",
        abstract: "Invoke a function once with an event, as Lambda would.",
        discussion: """
            Builds the function if it is stale, starts its binary on a private Runtime API, sends \
            the event and prints the response JSON on standard output. The function's log lines \
            and Lambda's START/END/REPORT lines go to standard error. Exit status: 0 on success, \
            1 when the function failed (error, timeout, crash), 2 for bad input.
            """
    )

    @Argument(help: "The function's logical id in the template.")
    var name: String

    @Option(name: [.short, .long], help: "The event JSON: a file, or - for standard input. Default: {}.")
    var event: String?

    @Option(
        name: [.customShort("n"), .customLong("env-vars")],
        help: "Environment overrides in SAM's format: {\"Parameters\":{…},\"Name\":{…}}."
    )
    var envVars: String?

    @Flag(name: .customLong("no-build"), help: "Run the binary as it is; do not build it first.")
    var noBuild = false

    @Flag(
        name: .customLong("pass-aws-env"),
        help: "Give the function this shell's AWS credentials (else it gets local ones that reach no account).")
    var passAWSEnv = false

    @OptionGroup var project: ProjectOptions
    @OptionGroup var packaged: PackagedOptions
    /// SAM CLI's `-t`: here on the commands SAM CLI has, not on every project command, where a
    /// key such as `gatehouse db get T -starts-with-dash` would read as short options.
    @Option(name: .customShort("t"), help: ArgumentHelp("Short for --template.", valueName: "template"))
    var shortTemplate: String?

    mutating func validate() throws {
        if let shortTemplate { project.template = shortTemplate }
    }

    func run() async throws {
        ChildProcess.killChildrenOnTermination()
        let prepared = try await UsageFailure.reporting { try await prepare() }
        let result = try await prepared.invoker.invoke(
            payload: prepared.payload,
            onStart: { Console.error(InvocationReport.startLine(requestID: $0)) }
        )
        await prepared.hook?.stop()
        Console.error(result.report.endLine)
        Console.error(result.report.reportLine)
        Console.output(result.payload.readableBytesView + [UInt8(ascii: "\n")])
        if result.outcome.isError {
            throw ExitCode(1)
        }
    }

    private struct Prepared {
        let invoker: LocalInvoker
        let payload: ByteBuffer
        /// The access-token hook's Invoke API for this run (`LocalHook`), stopped after it.
        let hook: LocalAPIGateway?
    }

    private func prepare() async throws -> Prepared {
        let template = try project.loadTemplate()
        let function = try template.function(named: name)
        let payload = try readEvent()
        let overrides = try envVars.map(EnvironmentOverrides.load(path:)) ?? EnvironmentOverrides()
        var local = LocalFunctions(project: project, template: template)
        local.packaged = packaged.folder(project: project)
        let executable = try local.executable(for: function, build: !noBuild)
        let host = LambdaEnvironment.host(ProcessInfo.processInfo.environment, passingCredentials: passAWSEnv)
        let (hook, defaults) = try await startHook(
            template, local: local, defaults: try local.defaults(store: await project.store(for: template)),
            host: host, overrides: overrides)
        let taskRoot = URL(fileURLWithPath: executable).deletingLastPathComponent().path
        let variables = overrides.variables(for: function.name)
        let lambdaDefaults = defaults
        let invoker = LocalInvoker(function: function, executable: executable) { runtimeAPI in
            LambdaEnvironment.make(
                function: function,
                runtimeAPI: runtimeAPI,
                taskRoot: taskRoot,
                host: host,
                defaults: lambdaDefaults,
                overrides: variables
            )
        }
        return Prepared(invoker: invoker, payload: payload, hook: hook)
    }

    /// The access-token hook of `template` served for this run when it has one other than this
    /// function (`LocalHook`), and `defaults` with the functions pointed at it.
    private func startHook(
        _ template: Template, local: LocalFunctions, defaults: [String: String], host: [String: String],
        overrides: EnvironmentOverrides
    ) async throws -> (LocalAPIGateway?, [String: String]) {
        guard LocalHook.function(in: template).map({ $0.name != name }) == true,
            let hook = try await LocalHook.start(for: template)
        else { return (nil, defaults) }
        let build = !noBuild
        var options = LocalAPI.Options { try local.executable(for: $0, build: build) }
        options.defaults = defaults
        options.host = host
        options.overrides = overrides
        options.notice = { Console.error($0) }
        options = hook.pointing(options)
        let gateway = hook.serve(pools: try LocalAPI.pools(for: [hook.function], options: options), options: options)
        return (gateway, options.defaults)
    }

    private func readEvent() throws -> ByteBuffer {
        guard let event else { return ByteBuffer(string: "{}") }
        let data: Data
        if event == "-" {
            data = FileHandle.standardInput.readDataToEndOfFile()
        } else {
            do {
                data = try Data(contentsOf: URL(fileURLWithPath: event))
            } catch {
                throw UsageFailure("cannot read the event file \(event): \((error as NSError).localizedDescription)")
            }
        }
        let source = event == "-" ? "the event on standard input" : event
        guard data.count <= PayloadLimits.synchronousPayloadBytes else {
            throw UsageFailure(
                "\(source) is \(data.count) bytes: Lambda accepts at most \(PayloadLimits.synchronousPayloadBytes)")
        }
        do {
            _ = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        } catch {
            let reason = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? "\(error)"
            throw UsageFailure("\(source) is not valid JSON: \(reason)")
        }
        return ByteBuffer(bytes: data)
    }
}
