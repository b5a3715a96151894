import GatehouseJSON

/// A call to a delivery provider that is not AWS (Resend, Twilio Verify) that failed, reported as
/// `AWSCallError` reports SES's: the provider, the operation, the status (0: no answer) and the
/// provider's error code, never the request, the recipient or a credential.
public struct ProviderCallError: Error, Sendable, Equatable, CustomStringConvertible {
    public let provider: String
    public let operation: String
    public let status: Int
    public let code: String

    public init(provider: String, operation: String, status: Int, code: String) {
        self.provider = provider
        self.operation = operation
        self.status = status
        self.code = code
    }

    public var description: String {
        status == 0
            ? "\(provider) \(operation) failed: \(code)" : "\(provider) \(operation) answered \(status) \(code)"
    }

    /// The error code in a provider's JSON error body: Resend's `name`, Twilio's numeric `code`.
    static func code(_ body: [UInt8]) -> String {
        guard let json = try? JSONValue(parsing: body) else { return "unknown" }
        if let name = json["name"]?.stringValue { return name }
        if let number = json["code"]?.numberValue { return String(Int(number)) }
        return json["code"]?.stringValue ?? "unknown"
    }
}
