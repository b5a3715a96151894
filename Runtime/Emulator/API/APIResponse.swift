/// What the local API Gateway answers an HTTP request with.
public struct APIResponse: Sendable, Equatable {
    public var status: Int
    /// Header lines in order (`Set-Cookie` may repeat).
    public var headers: [HeaderLine]
    public var body: [UInt8]

    /// One header line.
    public struct HeaderLine: Sendable, Equatable {
        public let name: String
        public let value: String

        public init(_ name: String, _ value: String) {
            self.name = name
            self.value = value
        }
    }

    public init(status: Int, headers: [HeaderLine] = [], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// Whether every header line can go on the wire as it is: a function that answers with a
    /// line break in a value (or a name that is not a token) gave a malformed answer.
    var headersAreWritable: Bool {
        headers.allSatisfy { HeaderField.isValidName($0.name) && HeaderField.isValidValue($0.value) }
    }

    /// API Gateway's own answers: `{"message": "..."}` as JSON.
    public static func message(_ status: Int, _ message: String) -> APIResponse {
        APIResponse(
            status: status, headers: [HeaderLine("content-type", "application/json")],
            body: Array(#"{"message":"\#(message)"}"#.utf8))
    }
}
