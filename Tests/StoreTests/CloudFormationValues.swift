import Foundation
import GatehouseJSON

/// The few intrinsic functions the issuer's parameter uses, evaluated as CloudFormation would:
/// `Ref` of a parameter, `Fn::Sub` (the API's id for `${GatehouseApi}`), `Fn::If` on the
/// template's conditions (`Fn::Not`, `Fn::Equals`).
struct CloudFormationValues {
    let root: JSONValue
    let parameters: [String: String]
    let apiID: String

    struct Unsupported: Error, CustomStringConvertible {
        let value: JSONValue
        var description: String { "cannot evaluate \(value.serialized)" }
    }

    /// The value, with each parameter's default when the deploy gave none; nil for nil.
    func value(_ value: JSONValue?) throws -> String? {
        guard let value else { return nil }
        if let text = value.stringValue { return text }
        if let name = value["Ref"]?.stringValue { return try parameter(name) }
        if let template = value["Fn::Sub"]?.stringValue { return try substitute(template) }
        if let branches = value["Fn::If"]?.arrayValue, branches.count == 3, let condition = branches[0].stringValue {
            return try self.value(try holds(root["Conditions"]?[condition]) ? branches[1] : branches[2])
        }
        throw Unsupported(value: value)
    }

    private func parameter(_ name: String) throws -> String {
        if let given = parameters[name] { return given }
        if name == "GatehouseApi" { return apiID }
        guard let fallback = root["Parameters"]?[name]?["Default"]?.stringValue else {
            throw Unsupported(value: ["Ref": .string(name)])
        }
        return fallback
    }

    private func substitute(_ template: String) throws -> String {
        var result = ""
        var rest = template[...]
        while let open = rest.range(of: "${"), let close = rest[open.upperBound...].firstIndex(of: "}") {
            result += rest[..<open.lowerBound]
            result += try parameter(String(rest[open.upperBound..<close]))
            rest = rest[rest.index(after: close)...]
        }
        return result + rest
    }

    private func holds(_ condition: JSONValue?) throws -> Bool {
        if let inner = condition?["Fn::Not"]?.arrayValue, inner.count == 1 { return try !holds(inner[0]) }
        if let pair = condition?["Fn::Equals"]?.arrayValue, pair.count == 2 {
            return try value(pair[0]) == value(pair[1])
        }
        throw Unsupported(value: condition ?? .null)
    }
}
