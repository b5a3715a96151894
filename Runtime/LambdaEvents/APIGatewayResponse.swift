/// A function's answer to a REST API (or HTTP API payload 1.0) proxy request.
public struct APIGatewayResponse: Codable, Sendable, Equatable {
    public var statusCode: Int
    public var headers: [String: String]?
    public var multiValueHeaders: [String: [String]]?
    public var body: String?
    public var isBase64Encoded: Bool?

    public init(
        statusCode: Int, headers: [String: String]? = nil, multiValueHeaders: [String: [String]]? = nil,
        body: String? = nil, isBase64Encoded: Bool? = nil
    ) {
        self.statusCode = statusCode
        self.headers = headers
        self.multiValueHeaders = multiValueHeaders
        self.body = body
        self.isBase64Encoded = isBase64Encoded
    }
}
