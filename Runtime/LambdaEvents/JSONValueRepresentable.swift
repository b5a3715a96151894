import GatehouseJSON
import LambdaRuntime

/// An output the runtime writes as JSON itself instead of through `JSONEncoder`: the API Gateway
/// responses, which almost every function returns. Encoding one with `JSONEncoder` was about a
/// sixth of a warm `GET /users/me` invocation's CPU time.
public protocol JSONValueRepresentable: Encodable {
    /// The JSON that `encode(to:)` writes, as a value.
    var jsonValue: JSONValue { get }
    /// `jsonValue.serializedBytes`, which a type may write without building the value.
    var serializedJSON: [UInt8] { get }
}

extension JSONValueRepresentable {
    public var serializedJSON: [UInt8] { jsonValue.serializedBytes }
}

extension APIGatewayV2Response: JSONValueRepresentable {
    /// Written member by member in `serializedBytes`' order, with no tree: the answer of nearly
    /// every HTTP function, on every invocation.
    public var serializedJSON: [UInt8] {
        var writer = JSONWriter(capacity: 128 + (body?.utf8.count ?? 0))
        writer.beginObject()
        if let body { writer.member("body", body) }
        if let cookies {
            writer.name("cookies")
            writer.beginArray()
            for cookie in cookies { writer.string(cookie) }
            writer.endArray()
        }
        if let headers {
            writer.name("headers")
            writer.sortedObject(headers)
        }
        if let isBase64Encoded {
            writer.name("isBase64Encoded")
            writer.bool(isBase64Encoded)
        }
        writer.name("statusCode")
        writer.integer(statusCode)
        writer.endObject()
        return writer.bytes
    }

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

extension APIGatewayAuthorizerPolicyResponse: JSONValueRepresentable {
    /// A statement's `Action` and `Resource` are written as one string when they hold one.
    public var jsonValue: JSONValue {
        func oneOrMany(_ values: [String]) -> JSONValue {
            values.count == 1 ? .string(values[0]) : .array(values.map { .string($0) })
        }
        let statements: [JSONValue] = policyDocument.statement.map { statement in
            [
                "Action": oneOrMany(statement.action), "Effect": .string(statement.effect.rawValue),
                "Resource": oneOrMany(statement.resource),
            ]
        }
        var members: [String: JSONValue] = [
            "principalId": .string(principalId),
            "policyDocument": ["Version": .string(policyDocument.version), "Statement": .array(statements)],
        ]
        if let context { members["context"] = .object(context) }
        if let usageIdentifierKey { members["usageIdentifierKey"] = .string(usageIdentifierKey) }
        return .object(members)
    }
}

extension APIGatewayV2AuthorizerSimpleResponse: JSONValueRepresentable {
    public var jsonValue: JSONValue {
        var members: [String: JSONValue] = ["isAuthorized": .bool(isAuthorized)]
        if let context { members["context"] = .object(context) }
        return .object(members)
    }
}
