/// An error with the `errorType` and `errorMessage` the Runtime API should report.
///
/// Throw it from a handler to choose both: API Gateway, for example, turns a TOKEN authorizer's
/// error whose message is exactly `Unauthorized` into a 401. Any other thrown error is reported
/// with its Swift type name as `errorType` and its description as `errorMessage`.
public struct InvocationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The `errorType`, also sent as the `Lambda-Runtime-Function-Error-Type` header.
    public var type: String
    /// The `errorMessage`.
    public var message: String

    /// Creates an error with the given type and message.
    public init(type: String, message: String) {
        self.type = type
        self.message = message
    }

    /// The report for any error: an `InvocationError` as it is, anything else by its type and description.
    public init(reporting error: any Error) {
        if let error = error as? InvocationError {
            self = error
        } else {
            self.init(type: String(describing: Swift.type(of: error)), message: String(describing: error))
        }
    }

    public var description: String { "\(type): \(message)" }
}
