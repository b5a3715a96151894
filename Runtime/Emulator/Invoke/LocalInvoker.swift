import Foundation
import NIOCore

#if canImport(Glibc)
import Glibc
#endif

/// Runs one invocation the way Lambda runs a cold one: a fresh instance (`WarmInstance`, the
/// same as `start-api`'s) of the function's binary on a private Runtime API, the event handed
/// over on its first `/next`, the instance stopped once it has answered. Timeouts are enforced
/// by killing the process.
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

    /// Invokes the function once with `payload`, on a fresh instance that is stopped once it
    /// has answered. `onStart` runs when the runtime takes the event (where Lambda writes `START`).
    public func invoke(
        payload: ByteBuffer,
        requestID: String = RequestID.make(),
        onStart: @escaping @Sendable (String) -> Void = { _ in }
    ) async throws -> InvocationResult {
        let instance = try await WarmInstance.start(
            number: 1, executable: executable, environment: environment, logPrefix: nil, batchScheduling: false)
        let initTimer = Task {
            try await ContinuousClock().sleep(until: instance.spawnedAt + Self.initTimeout)
            if instance.session.initializedAt == nil {
                instance.session.end(.timedOut(seconds: Self.initTimeout.seconds))
            }
        }
        let invocation = Invocation(
            requestID: requestID,
            payload: payload,
            invokedFunctionARN: "arn:aws:lambda:us-east-1:012345678912:function:\(function.name)",
            timeout: .milliseconds(Int64(function.timeoutSeconds * 1000))
        )
        let (outcome, timing) = await instance.session.invoke(invocation, onHandOut: { onStart(requestID) })
        initTimer.cancel()
        if case .response = outcome { await Self.awaitNext(instance.session) }
        let termination = await instance.stop()
        return InvocationResult(
            requestID: requestID, outcome: outcome,
            report: report(requestID, timing: timing, termination: termination, instance: instance),
            termination: termination, spawnToResult: timing.ended - instance.spawnedAt)
    }

    /// The longest a function may work after its response (`AfterResponse`) before `invoke`
    /// stops it anyway.
    public static let afterResponseLimit: Duration = .seconds(3)

    /// Waits until the runtime asks for its next event, as Lambda freezes an instance only then:
    /// work the function left for after its response (a recovery email) is done before the
    /// instance is stopped. At most `afterResponseLimit`.
    private static func awaitNext(_ session: RuntimeSession) async {
        let clock = ContinuousClock()
        let end = clock.now + afterResponseLimit
        while !session.hasParkedNext, clock.now < end {
            try? await clock.sleep(for: .milliseconds(2))
        }
    }

    /// Lambda's `REPORT` line for the invocation.
    private func report(
        _ requestID: String, timing: RuntimeSession.Timing, termination: ChildProcess.Termination,
        instance: WarmInstance
    ) -> InvocationReport {
        let duration = timing.handedOut.map { timing.ended - $0 } ?? .zero
        return InvocationReport(
            requestID: requestID,
            durationMilliseconds: duration.milliseconds,
            memorySizeMB: function.memorySize,
            maxMemoryUsedMB: max(1, (termination.maxResidentBytes + 1_048_575) / 1_048_576),
            initDurationMilliseconds: instance.session.initializedAt.map { ($0 - instance.spawnedAt).milliseconds }
        )
    }
}
