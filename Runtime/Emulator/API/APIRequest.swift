/// An HTTP request as the local API Gateway received it, before it becomes an event.
public struct APIRequest: Sendable {
    public var method: String
    /// The path as sent, percent-encoding kept.
    public var rawPath: String
    /// The query string as sent, without `?`.
    public var rawQuery: String
    /// Every header line in order; names as sent.
    public var headers: [(name: String, value: String)]
    public var body: [UInt8]
    public var sourceIP: String
    public var httpProtocol: String

    public init(
        method: String, rawPath: String, rawQuery: String = "", headers: [(name: String, value: String)] = [],
        body: [UInt8] = [], sourceIP: String = "127.0.0.1", httpProtocol: String = "HTTP/1.1"
    ) {
        self.method = method
        self.rawPath = rawPath
        self.rawQuery = rawQuery
        self.headers = headers
        self.body = body
        self.sourceIP = sourceIP
        self.httpProtocol = httpProtocol
    }

    /// The values of header `name` (any case), in order.
    public func values(of name: String) -> [String] {
        headers.filter { $0.name.lowercased() == name.lowercased() }.map(\.value)
    }
}
