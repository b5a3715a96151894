/// A table as template.json declares it (`AWS::DynamoDB::Table`): its key schema and TTL attribute.
public struct TableDefinition: Sendable, Equatable, Codable {
    /// A key attribute: its name and its DynamoDB scalar type.
    public struct KeyAttribute: Sendable, Equatable, Codable {
        /// `S` or `N` (binary keys are not supported).
        public enum ScalarType: String, Sendable, Codable {
            case string = "S"
            case number = "N"
        }

        public let name: String
        public let type: ScalarType

        public init(name: String, type: ScalarType) {
            self.name = name
            self.type = type
        }
    }

    /// The table's logical id in the template: what callers and `gatehouse db` name it by.
    public let name: String
    public let partitionKey: KeyAttribute
    public let sortKey: KeyAttribute?
    /// `TimeToLiveSpecification.AttributeName` when TTL is enabled.
    public let timeToLiveAttribute: String?

    public init(
        name: String, partitionKey: KeyAttribute, sortKey: KeyAttribute? = nil, timeToLiveAttribute: String? = nil
    ) {
        self.name = name
        self.partitionKey = partitionKey
        self.sortKey = sortKey
        self.timeToLiveAttribute = timeToLiveAttribute
    }
}
