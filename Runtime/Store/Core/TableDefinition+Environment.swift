extension TableDefinition {
    /// The variable that gives a function without a store file its tables' key schemas.
    public static let environmentVariable = "GATEHOUSE_TABLES"

    /// `tables` as one short line for a function's environment:
    /// `Users=id:S;Sessions=userId:S,sessionId:S,ttl=ttl` (partition key, sort key, TTL attribute).
    public static func environmentText(_ tables: [TableDefinition]) -> String {
        tables.map { table in
            var parts = ["\(table.partitionKey.name):\(table.partitionKey.type.rawValue)"]
            if let sort = table.sortKey { parts.append("\(sort.name):\(sort.type.rawValue)") }
            if let ttl = table.timeToLiveAttribute { parts.append("ttl=\(ttl)") }
            return "\(table.name)=\(parts.joined(separator: ","))"
        }.joined(separator: ";")
    }

    /// The tables `environmentText` wrote; an error naming the entry that is not one.
    public static func parseEnvironmentText(_ text: String) throws(StoreError) -> [TableDefinition] {
        try text.split(separator: ";").map { entry throws(StoreError) in
            let invalid = StoreError.invalidTable(
                place: environmentVariable, reason: "\"\(entry)\" is not NAME=KEY:S|N[,KEY:S|N][,ttl=ATTRIBUTE]")
            let halves = entry.split(separator: "=", maxSplits: 1)
            guard halves.count == 2, !halves[0].isEmpty else { throw invalid }
            var keys: [KeyAttribute] = []
            var ttl: String?
            for part in halves[1].split(separator: ",") {
                if part.hasPrefix("ttl=") {
                    ttl = String(part.dropFirst(4))
                    continue
                }
                let pieces = part.split(separator: ":")
                guard pieces.count == 2, let type = KeyAttribute.ScalarType(rawValue: String(pieces[1])) else {
                    throw invalid
                }
                keys.append(KeyAttribute(name: String(pieces[0]), type: type))
            }
            guard (1...2).contains(keys.count), ttl?.isEmpty != true else { throw invalid }
            return TableDefinition(
                name: String(halves[0]), partitionKey: keys[0], sortKey: keys.count > 1 ? keys[1] : nil,
                timeToLiveAttribute: ttl)
        }
    }
}
