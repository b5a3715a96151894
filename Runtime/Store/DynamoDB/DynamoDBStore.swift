import AWSSigning
import GatehouseJSON
import OutboundHTTP
import StoreCore

/// The key-value store on DynamoDB, for deployed functions: the same contract as the SQLite
/// file, over DynamoDB's JSON protocol (signed with SigV4, through the functions' HTTPS client).
///
/// The contract's TTL rule holds although DynamoDB deletes expired items only eventually: an
/// expired item is never returned by a read, and every condition treats it as absent inside the
/// condition expression itself (`attribute_not_exists(#pk) OR #ttl <= :now`), never by a read
/// before the write.
public struct DynamoDBStore: KeyValueStore {
    let tables: [String: DynamoDBTable]
    let client: DynamoDBClient
    let clock: any StoreClock

    public init(
        settings: DynamoDBSettings, tables: [DynamoDBTable], clock: any StoreClock = SystemStoreClock(),
        http: OutboundHTTPClient = .shared
    ) {
        self.tables = Dictionary(tables.map { ($0.definition.name, $0) }, uniquingKeysWith: { first, _ in first })
        self.clock = clock
        client = DynamoDBClient(settings: settings, http: http)
    }

    /// Where it calls.
    public var endpoint: String { client.settings.endpoint }

    /// The name table `logicalName` has at the endpoint.
    public func physicalName(of logicalName: String) -> String? { tables[logicalName]?.physicalName }

    /// The table named `name` (its logical id), or `unknownTable`.
    func table(_ name: String) throws(StoreError) -> DynamoDBTable {
        guard let table = tables[name] else { throw .unknownTable(name, available: tables.keys.sorted()) }
        return table
    }

    /// `call`, with the service's answers as the contract's errors: a failed condition is
    /// `conditionFailed` for `key`, anything else `unavailable`.
    func call(
        _ operation: String, table: DynamoDBTable, key: ItemKey?, _ body: [String: JSONValue]
    ) async throws -> JSONValue {
        do {
            return try await client.call(operation, table: table.definition.name, body)
        } catch let error as DynamoDBServiceError {
            if error.type == "ConditionalCheckFailedException", let key {
                throw StoreError.conditionFailed(table: table.definition.name, key: key.description)
            }
            throw StoreError.unavailable(
                operation: operation, table: table.definition.name, reason: DynamoDBClient.reason(error))
        }
    }

    /// A returned item, or nil when it has expired.
    func live(_ item: [String: JSONValue]?, in table: DynamoDBTable) -> [String: JSONValue]? {
        guard let item, !StoreTTL.isExpired(item, attribute: table.definition.timeToLiveAttribute, now: clock.now)
        else { return nil }
        return item
    }

    /// The item an answer's `member` holds (`Item`, `Attributes`), decoded.
    func item(
        _ answer: JSONValue, _ member: String, table: DynamoDBTable, operation: String
    ) throws -> [String: JSONValue]? {
        guard let attributes = answer[member] else { return nil }
        guard let item = AttributeValue.decode(item: attributes) else {
            throw StoreError.unavailable(
                operation: operation, table: table.definition.name,
                reason: "an attribute of a type Gatehouse never writes")
        }
        return item
    }
}

extension DynamoDBStore {
    /// The store a deployed function opens: the key schemas from `GATEHOUSE_TABLES`, and of
    /// those the tables the function is given a `TABLE_<LogicalId>` name for (its template
    /// entry lists exactly the tables its policies allow, so a table it was not given is an
    /// `unknownTable` here rather than an access denied in AWS). With no `TABLE_` variable at
    /// all, every table, by its logical id. The endpoint and credentials come from
    /// `DynamoDBSettings(environment:)`.
    public init(environment: [String: String], clock: any StoreClock = SystemStoreClock()) throws {
        guard let text = environment[TableDefinition.environmentVariable], !text.isEmpty else {
            throw DynamoDBSettingsError.missing(TableDefinition.environmentVariable)
        }
        let named = environment.keys.contains { $0.hasPrefix("TABLE_") }
        let tables = try TableDefinition.parseEnvironmentText(text).compactMap { definition -> DynamoDBTable? in
            let physical = environment["TABLE_\(definition.name)"].flatMap { $0.isEmpty ? nil : $0 }
            guard physical != nil || !named else { return nil }
            return DynamoDBTable(definition: definition, physicalName: physical ?? definition.name)
        }
        self.init(settings: try DynamoDBSettings(environment: environment), tables: tables, clock: clock)
    }
}
