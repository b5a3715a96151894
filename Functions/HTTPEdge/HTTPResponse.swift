import GatehouseJSON
import LambdaRuntime

/// A function's answer to an HTTP request, written back in the request's payload format.
public struct HTTPResponse: Sendable, Equatable {
    public var statusCode: Int
    public var headers: [String: String]
    /// Each becomes its own `Set-Cookie` header.
    public var cookies: [String]
    public var body: String?
    public var isBase64Encoded: Bool

    public init(
        statusCode: Int, headers: [String: String] = [:], cookies: [String] = [], body: String? = nil,
        isBase64Encoded: Bool = false
    ) {
        self.statusCode = statusCode
        self.headers = headers
        self.cookies = cookies
        self.body = body
        self.isBase64Encoded = isBase64Encoded
    }

    /// A JSON answer that no cache keeps (it may hold tokens).
    public static func json(_ statusCode: Int, _ body: JSONValue, headers: [String: String] = [:]) -> Self {
        var all = ["content-type": "application/json", "cache-control": "no-store"]
        all.merge(headers) { $1 }
        return HTTPResponse(statusCode: statusCode, headers: all, body: body.serialized)
    }

    /// Gatehouse's error answer: `{"error": "snake_case_code", "message": "A human sentence."}`.
    public static func error(
        _ statusCode: Int, code: String, message: String, headers: [String: String] = [:]
    ) -> Self {
        json(statusCode, ["error": .string(code), "message": .string(message)], headers: headers)
    }

    /// The answer as the Lambda response for `format`: payload 2.0's `cookies`, or payload
    /// 1.0's `Set-Cookie` in `multiValueHeaders`.
    public func serialized(for format: PayloadFormat) -> [UInt8] {
        switch format {
        case .v2:
            return APIGatewayV2Response(
                statusCode: statusCode, headers: headers, cookies: cookies.isEmpty ? nil : cookies, body: body,
                isBase64Encoded: isBase64Encoded
            ).serializedJSON
        case .v1:
            return APIGatewayResponse(
                statusCode: statusCode, headers: headers,
                multiValueHeaders: cookies.isEmpty ? nil : ["Set-Cookie": cookies], body: body,
                isBase64Encoded: isBase64Encoded
            ).serializedJSON
        }
    }
}
