import GatehouseJSON

/// One change an update makes to an item's attributes.
public enum UpdateAction: Sendable, Equatable {
    /// Sets the attribute to the value.
    case set(String, JSONValue)
    /// Adds to a number attribute, which starts from 0 when absent (an atomic counter).
    case add(String, Double)
    /// Removes the attribute.
    case remove(String)
}
