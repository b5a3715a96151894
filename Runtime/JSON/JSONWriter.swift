/// Writes compact JSON text straight into bytes, member by member, for documents built on every
/// request (start-api's events): no `JSONValue` tree, no dictionaries, no sorting. Strings and
/// numbers are written exactly as `JSONValue.serializedBytes` writes them.
///
/// The caller keeps the structure right (a name before each member's value, every begin
/// matched by its end); commas are the writer's.
public struct JSONWriter: Sendable {
    /// The text so far.
    public private(set) var bytes: [UInt8] = []
    /// Whether the next member or element needs a comma before it.
    private var afterValue = false

    public init(capacity: Int = 1024) {
        bytes.reserveCapacity(capacity)
    }

    public mutating func beginObject() {
        separate()
        bytes.append(UInt8(ascii: "{"))
        afterValue = false
    }

    public mutating func endObject() {
        bytes.append(UInt8(ascii: "}"))
        afterValue = true
    }

    public mutating func beginArray() {
        separate()
        bytes.append(UInt8(ascii: "["))
        afterValue = false
    }

    public mutating func endArray() {
        bytes.append(UInt8(ascii: "]"))
        afterValue = true
    }

    /// A member's name; its value comes next.
    public mutating func name(_ name: String) {
        separate()
        JSONValue.writeQuoted(name, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        afterValue = false
    }

    public mutating func string(_ value: String) {
        separate()
        JSONValue.writeQuoted(value, to: &bytes)
        afterValue = true
    }

    public mutating func bool(_ value: Bool) {
        separate()
        bytes.append(contentsOf: value ? "true".utf8 : "false".utf8)
        afterValue = true
    }

    /// A whole number, written as `serializedBytes` writes one.
    public mutating func integer(_ value: Int) {
        separate()
        bytes.append(contentsOf: String(value).utf8)
        afterValue = true
    }

    /// Any value, written as `serializedBytes` writes it.
    public mutating func value(_ value: JSONValue) {
        separate()
        value.write(to: &bytes)
        afterValue = true
    }

    /// A member with a string value.
    public mutating func member(_ name: String, _ value: String) {
        self.name(name)
        string(value)
    }

    /// An object of string members, in the map's order.
    public mutating func object(_ members: [String: String]) {
        beginObject()
        for (name, value) in members { member(name, value) }
        endObject()
    }

    /// An object of string members ordered by name as `serializedBytes` orders them (by the
    /// names' UTF-8 bytes), so the text is the same.
    public mutating func sortedObject(_ members: [String: String]) {
        beginObject()
        for (name, value) in members.sorted(by: { JSONValue.memberPrecedes($0.key, $1.key) }) {
            member(name, value)
        }
        endObject()
    }

    private mutating func separate() {
        if afterValue { bytes.append(UInt8(ascii: ",")) }
    }
}
