import GatehouseJSON

/// A condition a write checks atomically against the current item (an expired item counts as absent).
public enum WriteCondition: Sendable, Equatable {
    /// The item must not exist (DynamoDB's `attribute_not_exists(pk)`).
    case itemNotExists
    /// The item must exist.
    case itemExists
    /// The item must exist and its attribute `name` must equal `value`.
    case attributeEquals(String, JSONValue)
    /// The item must not exist, or lack the attribute `name`, or hold a number below `limit`
    /// there: a counter's cap, checked in the transaction that adds to it (DynamoDB's
    /// `attribute_not_exists(pk) OR attribute_not_exists(name) OR name < limit`).
    case attributeBelow(String, Double)
    /// The item must exist and lack the attribute `name` or hold a number below `limit` there:
    /// a user whose ban (`bannedUntil`) has lapsed or who has none, checked in the transaction
    /// that starts a session (DynamoDB's `attribute_exists(pk) AND (attribute_not_exists(name)
    /// OR name < limit)`).
    case itemExistsWithAttributeBelow(String, Double)
}
