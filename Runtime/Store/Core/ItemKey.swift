import GatehouseJSON

/// An item's primary key: its partition key value and, for tables that have one, its sort key value.
public struct ItemKey: Sendable, Hashable, CustomStringConvertible {
    public let partition: JSONValue
    public let sort: JSONValue?

    public init(_ partition: JSONValue, _ sort: JSONValue? = nil) {
        self.partition = partition
        self.sort = sort
    }

    public var description: String {
        func text(_ value: JSONValue) -> String {
            switch value {
            case .string(let string): return string
            case .number(let number): return number.rounded() == number ? String(Int64(number)) : String(number)
            default: return "\(value)"
            }
        }
        return sort.map { "\(text(partition)) / \(text($0))" } ?? text(partition)
    }
}
