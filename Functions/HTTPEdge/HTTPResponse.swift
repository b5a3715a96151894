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
    /// The refusal's code when an error answer made this response (`ErrorAnswer`,
    /// `SupabaseErrorAnswer`): what the request's metric names as its reason. Never sent.
    public var refusalCode: String?

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
    /// 1.0's `Set-Cookie` in `multiValueHeaders`. Written member by member in sorted order, with
    /// no tree and without the event types' module (see LambdaEvents): the answer of every HTTP
    /// function, on every invocation.
    public func serialized(for format: PayloadFormat) -> [UInt8] {
        var writer = JSONWriter(capacity: 160 + (body?.utf8.count ?? 0))
        writer.beginObject()
        if let body { writer.member("body", body) }
        if format == .v2, !cookies.isEmpty {
            writer.name("cookies")
            writer.strings(cookies)
        }
        writer.name("headers")
        writer.sortedObject(headers)
        writer.name("isBase64Encoded")
        writer.bool(isBase64Encoded)
        if format == .v1, !cookies.isEmpty {
            writer.name("multiValueHeaders")
            writer.beginObject()
            writer.name("Set-Cookie")
            writer.strings(cookies)
            writer.endObject()
        }
        writer.name("statusCode")
        writer.integer(statusCode)
        writer.endObject()
        return writer.bytes
    }
}

extension JSONWriter {
    fileprivate mutating func strings(_ values: [String]) {
        beginArray()
        for value in values { string(value) }
        endArray()
    }
}
