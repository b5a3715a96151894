import GatehouseJSON
import LambdaRuntime

/// An output the runtime writes as JSON itself instead of through `JSONEncoder`: the
/// authorizer's answers here; a typed handler's own output type may conform too.
public protocol JSONValueRepresentable: Encodable {
    /// The JSON that `encode(to:)` writes, as a value.
    var jsonValue: JSONValue { get }
    /// `jsonValue.serializedBytes`, which a type may write without building the value.
    var serializedJSON: [UInt8] { get }
}

extension JSONValueRepresentable {
    public var serializedJSON: [UInt8] { jsonValue.serializedBytes }
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
