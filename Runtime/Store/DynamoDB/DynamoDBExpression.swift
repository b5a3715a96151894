import GatehouseJSON
import StoreCore

/// One request's expressions and their placeholders: attribute names as `#n0, #n1, …` and
/// values as `:v0, :v1, …`, so no name or value is ever spliced into an expression's text.
struct DynamoDBExpression {
    private(set) var names: [String: JSONValue] = [:]
    private(set) var values: [String: JSONValue] = [:]
    private var nameIndex: [String: String] = [:]
    let table: DynamoDBTable
    let now: Double

    init(table: DynamoDBTable, now: Double) {
        self.table = table
        self.now = now
    }

    mutating func name(_ attribute: String) -> String {
        if let placeholder = nameIndex[attribute] { return placeholder }
        let placeholder = "#n\(nameIndex.count)"
        nameIndex[attribute] = placeholder
        names[placeholder] = .string(attribute)
        return placeholder
    }

    mutating func value(_ value: JSONValue) -> String {
        let placeholder = ":v\(values.count)"
        values[placeholder] = AttributeValue.encode(value)
        return placeholder
    }

    /// True when the item at the key has expired by its TTL (never for a table without TTL):
    /// a number at or before now and within DynamoDB's five-year horizon.
    mutating func expired() -> String? {
        guard let ttl = table.definition.timeToLiveAttribute else { return nil }
        let attribute = name(ttl)
        return "(\(attribute) <= \(value(.number(now))) AND \(attribute) > \(value(.number(now - StoreTTL.horizon))))"
    }

    /// The item exists and has not expired.
    mutating func live() -> String {
        let exists = "attribute_exists(\(name(table.definition.partitionKey.name)))"
        guard let expired = expired() else { return exists }
        return "(\(exists) AND NOT \(expired))"
    }

    /// No item, or an expired one.
    mutating func absent() -> String {
        let missing = "attribute_not_exists(\(name(table.definition.partitionKey.name)))"
        guard let expired = expired() else { return missing }
        return "(\(missing) OR \(expired))"
    }

    /// What every update adds to its condition on a table with TTL: an update may build on a
    /// live item or none, never on an expired item's attributes (nil without TTL, or when the
    /// condition already asks for a live item).
    mutating func updateGuard(_ condition: WriteCondition?) -> String? {
        guard table.definition.timeToLiveAttribute != nil, condition != .itemExists else { return nil }
        return "(attribute_not_exists(\(name(table.definition.partitionKey.name))) OR \(live()))"
    }

    /// The contract's condition as an expression; nil for none.
    mutating func condition(_ condition: WriteCondition?) -> String? {
        switch condition {
        case nil: nil
        case .itemNotExists: absent()
        case .itemExists: live()
        case .attributeEquals(let attribute, let expected):
            "(\(live()) AND \(name(attribute)) = \(value(expected)))"
        case .attributeBelow(let attribute, let limit):
            // Typed first: a value that is not a number is below nothing (DynamoDB's own `<`
            // across types is false; moto's raises).
            """
            (\(absent()) OR attribute_not_exists(\(name(attribute))) OR \
            (attribute_type(\(name(attribute)), \(value(.string("N")))) AND \(name(attribute)) < \(value(.number(limit)))))
            """
        case .itemExistsWithAttributeBelow(let attribute, let limit):
            """
            (\(live()) AND (attribute_not_exists(\(name(attribute))) OR \
            (attribute_type(\(name(attribute)), \(value(.string("N")))) AND \(name(attribute)) < \(value(.number(limit))))))
            """
        }
    }

    /// `SET …, ADD …, REMOVE …` for `actions`; a key attribute cannot be changed.
    mutating func update(_ actions: [UpdateAction]) throws(StoreError) -> String {
        var sets: [String] = []
        var adds: [String] = []
        var removes: [String] = []
        let keys = [table.definition.partitionKey.name, table.definition.sortKey?.name].compactMap { $0 }
        for action in actions {
            switch action {
            case .set(let attribute, let newValue):
                try refuseKey(attribute, keys)
                sets.append("\(name(attribute)) = \(value(newValue))")
            case .add(let attribute, let amount):
                try refuseKey(attribute, keys)
                adds.append("\(name(attribute)) \(value(.number(amount)))")
            case .remove(let attribute):
                try refuseKey(attribute, keys)
                removes.append(name(attribute))
            }
        }
        var clauses: [String] = []
        if !sets.isEmpty { clauses.append("SET " + sets.joined(separator: ", ")) }
        if !adds.isEmpty { clauses.append("ADD " + adds.joined(separator: ", ")) }
        if !removes.isEmpty { clauses.append("REMOVE " + removes.joined(separator: ", ")) }
        guard !clauses.isEmpty else { throw .invalidUpdate("\(table.definition.name): an update needs an action") }
        return clauses.joined(separator: " ")
    }

    /// The placeholders, as a request's `ExpressionAttributeNames` / `…Values`.
    func attach(to request: inout [String: JSONValue]) {
        if !names.isEmpty { request["ExpressionAttributeNames"] = .object(names) }
        if !values.isEmpty { request["ExpressionAttributeValues"] = .object(values) }
    }

    private func refuseKey(_ attribute: String, _ keys: [String]) throws(StoreError) {
        guard !keys.contains(attribute) else {
            throw .invalidUpdate("\(table.definition.name): the key attribute \(attribute) cannot be updated")
        }
    }
}
