/// A function's answer to an HTTP API payload 2.0 request.
public struct APIGatewayV2Response: Codable, Sendable, Equatable {
    public var statusCode: Int
    public var headers: [String: String]?
    /// Each becomes its own `Set-Cookie` header.
    public var cookies: [String]?
    public var body: String?
    public var isBase64Encoded: Bool?

    public init(
        statusCode: Int, headers: [String: String]? = nil, cookies: [String]? = nil, body: String? = nil,
        isBase64Encoded: Bool? = nil
    ) {
        self.statusCode = statusCode
        self.headers = headers
        self.cookies = cookies
        self.body = body
        self.isBase64Encoded = isBase64Encoded
    }
}
