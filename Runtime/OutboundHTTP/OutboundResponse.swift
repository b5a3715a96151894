/// The answer to an `OutboundRequest`: a status below 300 or at least 400 (a redirect is an
/// error, never followed), the final header block, and the whole body.
public struct OutboundResponse: Sendable {
    public var status: Int
    /// Names lower-cased, in the order received.
    public var headers: [(name: String, value: String)]
    public var body: [UInt8]

    public init(status: Int, headers: [(name: String, value: String)], body: [UInt8]) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The first value of header `name` (lower-case).
    public func header(_ name: String) -> String? {
        headers.first { $0.name == name }?.value
    }
}
