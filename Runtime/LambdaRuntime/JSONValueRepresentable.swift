import GatehouseJSON

/// An output the runtime writes as JSON itself instead of through `JSONEncoder`: the API Gateway
/// responses, which almost every function returns. Encoding one with `JSONEncoder` was about a
/// sixth of a warm `GET /users/me` invocation's CPU time.
public protocol JSONValueRepresentable: Encodable {
    /// The JSON that `encode(to:)` writes, as a value.
    var jsonValue: JSONValue { get }
}

extension APIGatewayV2Response: JSONValueRepresentable {
    public var jsonValue: JSONValue {
        var members: [String: JSONValue] = ["statusCode": .number(Double(statusCode))]
        if let headers { members["headers"] = .object(headers.mapValues { .string($0) }) }
        if let cookies { members["cookies"] = .array(cookies.map { .string($0) }) }
        if let body { members["body"] = .string(body) }
        if let isBase64Encoded { members["isBase64Encoded"] = .bool(isBase64Encoded) }
        return .object(members)
    }
}

extension APIGatewayResponse: JSONValueRepresentable {
    public var jsonValue: JSONValue {
        var members: [String: JSONValue] = ["statusCode": .number(Double(statusCode))]
        if let headers { members["headers"] = .object(headers.mapValues { .string($0) }) }
        if let multiValueHeaders {
            members["multiValueHeaders"] = .object(multiValueHeaders.mapValues { .array($0.map { .string($0) }) })
        }
        if let body { members["body"] = .string(body) }
        if let isBase64Encoded { members["isBase64Encoded"] = .bool(isBase64Encoded) }
        return .object(members)
    }
}
