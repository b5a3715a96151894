import GatehouseJSON

/// A condition a write checks atomically against the current item (an expired item counts as absent).
public enum WriteCondition: Sendable, Equatable {
    /// The item must not exist (DynamoDB's `attribute_not_exists(pk)`).
    case itemNotExists
    /// The item must exist.
    case itemExists
    /// The item must exist and its attribute `name` must equal `value`.
    case attributeEquals(String, JSONValue)
}
