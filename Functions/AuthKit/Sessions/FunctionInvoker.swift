/// How AuthKit calls a function it is configured to call (the access-token hook): AuthKit makes
/// no call itself, so the function's `main.swift` passes one in (`RemoteSenders.functions()`,
/// Lambda's Invoke API through AWSSecrets' `LambdaInvoker`).
public protocol FunctionInvoker: Sendable {
    /// The answer of `function` (a name or an ARN) to `payload` (a JSON document). A failed
    /// invocation throws `FunctionInvocationError`; any other error means it was not reached.
    func invoke(_ function: String, payload: [UInt8]) async throws -> [UInt8]
}

/// An invocation that did not give an answer: what a `FunctionInvoker` throws.
public enum FunctionInvocationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No answer within the time allowed.
    case timedOut
    /// The function ran and failed (Lambda's `X-Amz-Function-Error`): its error type only, never
    /// its message, which may repeat the payload.
    case functionFailed(type: String)
    /// The answer was larger than the caller reads.
    case answerTooLarge
    /// The function could not be invoked: the service's error code, or the transport's failure.
    case unreachable(String)

    public var description: String {
        switch self {
        case .timedOut: "the function did not answer in time"
        case .functionFailed(let type): "the function failed (\(type))"
        case .answerTooLarge: "the function's answer is too large"
        case .unreachable(let why): "the function could not be invoked: \(why)"
        }
    }
}
