import Foundation
import NIOCore

#if canImport(Glibc)
import Glibc
#endif

/// Runs one invocation the way Lambda runs a cold one: a fresh process of the function's binary
/// on a private Runtime API, the event handed over on its first `/next`, the process stopped
/// once it has answered. Timeouts are enforced by killing the process.
public struct LocalInvoker: Sendable {
    /// Lambda's limit on initialisation (the time before the runtime's first `/next`).
    public static let initTimeout: Duration = .seconds(10)

    public let function: FunctionDefinition
    /// The binary to run (a Swift product, or a `bootstrap`).
    public let executable: String
    /// The environment apart from `AWS_LAMBDA_RUNTIME_API`, which is added per process.
    public let environment: @Sendable (_ runtimeAPI: String) -> [String: String]

    public init(
        function: FunctionDefinition,
        executable: String,
        environment: @escaping @Sendable (_ runtimeAPI: String) -> [String: String]
    ) {
        self.function = function
        self.executable = executable
        self.environment = environment
    }

    /// Invokes the function once with `payload`. `onStart` runs when the runtime takes the event
    /// (where Lambda writes `START`).
    public func invoke(
        payload: ByteBuffer,
        requestID: String = RequestID.make(),
        onStart: @escaping @Sendable (String) -> Void = { _ in }
    ) async throws -> InvocationResult {
        let clock = ContinuousClock()
        let session = RuntimeSession(clock: clock)
        let server = try await RuntimeAPIServer.start(session: session)
        let directory = URL(fileURLWithPath: executable).deletingLastPathComponent().path

        let spawnedAt = clock.now
        let child: ChildProcess
        do {
            child = try ChildProcess(
                executable: executable,
                environment: environment(server.address),
                directory: directory
            )
        } catch {
            session.end(.cancelled)
            await server.stop()
            throw error
        }
        let watcher = Task { () -> ChildProcess.Termination in
            let termination = await child.terminated()
            session.end(.exited(termination))
            return termination
        }
        let initTimer = Task {
            try await clock.sleep(for: Self.initTimeout)
            if session.initializedAt == nil {
                session.end(.timedOut(seconds: Self.initTimeout.seconds))
            }
        }
        let invocation = Invocation(
            requestID: requestID,
            payload: payload,
            invokedFunctionARN: "arn:aws:lambda:us-east-1:012345678912:function:\(function.name)",
            timeout: .milliseconds(Int64(function.timeoutSeconds * 1000))
        )
        let (outcome, timing) = await session.invoke(invocation, onHandOut: { onStart(requestID) })
        initTimer.cancel()

        // Stop the process before releasing its parked /next, so it never sees the shutdown.
        child.kill(SIGKILL)
        let termination = await watcher.value
        session.end(.cancelled)
        await server.stop()

        let initializedAt = session.initializedAt
        let duration = timing.handedOut.map { timing.ended - $0 } ?? .zero
        let report = InvocationReport(
            requestID: requestID,
            durationMilliseconds: duration.milliseconds,
            memorySizeMB: function.memorySize,
            maxMemoryUsedMB: max(1, (termination.maxResidentBytes + 1_048_575) / 1_048_576),
            initDurationMilliseconds: initializedAt.map { ($0 - spawnedAt).milliseconds }
        )
        return InvocationResult(
            requestID: requestID,
            outcome: outcome,
            report: report,
            termination: termination,
            spawnToResult: timing.ended - spawnedAt
        )
    }

}
