import GatehouseJSON

/// Which sort keys a query returns.
public enum SortKeyCondition: Sendable, Equatable {
    case equals(JSONValue)
    /// String sort keys that begin with the prefix.
    case beginsWith(String)
    /// Both bounds included, as DynamoDB's `BETWEEN`.
    case between(JSONValue, JSONValue)
}
