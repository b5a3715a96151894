import GatehouseJSON
import StoreCore

extension TableDefinition {
    /// Every `AWS::DynamoDB::Table` of a template, by logical id, sorted by name. A table the
    /// store cannot use is an error naming its place in the template.
    public static func definitions(inTemplate root: JSONValue) throws -> [TableDefinition] {
        guard let resources = root["Resources"]?.objectValue else { return [] }
        return try resources.keys.sorted().compactMap { name in
            guard let resource = resources[name], resource["Type"]?.stringValue == "AWS::DynamoDB::Table" else {
                return nil
            }
            return try definition(named: name, properties: resource["Properties"])
        }
    }

    private static func definition(named name: String, properties: JSONValue?) throws -> TableDefinition {
        let place = "Resources.\(name).Properties"
        func fail(_ detail: String) -> StoreError {
            .invalidTable(place: place, reason: detail)
        }
        guard let keySchema = properties?["KeySchema"]?.arrayValue, !keySchema.isEmpty, keySchema.count <= 2 else {
            throw fail("KeySchema must list a HASH key and at most one RANGE key")
        }
        var types: [String: KeyAttribute.ScalarType] = [:]
        for definition in properties?["AttributeDefinitions"]?.arrayValue ?? [] {
            guard let attribute = definition["AttributeName"]?.stringValue,
                let type = definition["AttributeType"]?.stringValue
            else { throw fail("each AttributeDefinitions entry needs AttributeName and AttributeType") }
            guard let scalar = KeyAttribute.ScalarType(rawValue: type) else {
                throw fail("AttributeType \(type) of \(attribute) is not supported here (S or N)")
            }
            types[attribute] = scalar
        }
        var hash: KeyAttribute?
        var range: KeyAttribute?
        for element in keySchema {
            guard let attribute = element["AttributeName"]?.stringValue, let kind = element["KeyType"]?.stringValue
            else {
                throw fail("each KeySchema entry needs AttributeName and KeyType")
            }
            guard let type = types[attribute] else {
                throw fail("key attribute \(attribute) is not in AttributeDefinitions")
            }
            switch kind {
            case "HASH" where hash == nil: hash = KeyAttribute(name: attribute, type: type)
            case "RANGE" where range == nil: range = KeyAttribute(name: attribute, type: type)
            default: throw fail("KeyType \(kind) of \(attribute) is repeated or unknown (HASH, RANGE)")
            }
        }
        guard let hash else { throw fail("KeySchema has no HASH key") }
        var ttl: String?
        if let specification = properties?["TimeToLiveSpecification"], specification["Enabled"] != false {
            guard let attribute = specification["AttributeName"]?.stringValue else {
                throw fail("TimeToLiveSpecification needs AttributeName")
            }
            ttl = attribute
        }
        return TableDefinition(name: name, partitionKey: hash, sortKey: range, timeToLiveAttribute: ttl)
    }
}
