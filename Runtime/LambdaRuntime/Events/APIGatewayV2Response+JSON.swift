import GatehouseJSON

extension APIGatewayV2Response {
    /// A JSON answer that no cache keeps (it may hold tokens).
    public static func json(_ statusCode: Int, _ body: JSONValue, headers: [String: String] = [:]) -> Self {
        var all = ["content-type": "application/json", "cache-control": "no-store"]
        all.merge(headers) { $1 }
        return APIGatewayV2Response(statusCode: statusCode, headers: all, body: body.serialized)
    }

    /// Gatehouse's error answer: `{"error": "snake_case_code", "message": "A human sentence."}`.
    public static func error(
        _ statusCode: Int, code: String, message: String, headers: [String: String] = [:]
    ) -> Self {
        json(statusCode, ["error": .string(code), "message": .string(message)], headers: headers)
    }
}
