/// A JSON object whose text is checked in full when it is made, and whose members are decoded
/// only when asked for.
///
/// Checking follows `JSONValue(parsing:)` exactly (strict RFC 8259, bounded nesting), with
/// duplicate member names refused at every level. Nothing is built while checking: no strings,
/// no dictionaries. A reader that needs three members of a token's claims pays for those three,
/// which is what made JWT verification spend more time in JSON than in the rest of its work.
///
/// Names compare as `String`'s `==` does (the rule a `[String: JSONValue]` uses), so a member
/// found here is the one the parsed dictionary would hold.
public struct LazyJSONObject: Sendable {
    /// The JSON text.
    public let text: [UInt8]
    private let members: [JSONParser.Member]

    /// Checks `text`, which must be one JSON object (surrounding white space allowed).
    public init(parsing text: [UInt8]) throws(JSONParseError) {
        let scanned = try text.withUnsafeBufferPointer { buffer in
            Result { () throws(JSONParseError) in
                var parser = JSONParser(buffer, rejectDuplicateKeys: true)
                return try parser.scanTopLevelObject()
            }
        }.get()
        guard let scanned else { throw JSONParseError.notAnObject }
        self.text = text
        self.members = scanned
    }

    private init(text: [UInt8], members: [JSONParser.Member]) {
        self.text = text
        self.members = members
    }

    /// How many members the object has.
    public var count: Int { members.count }

    /// The members' names, in the order of the text.
    public var names: [String] {
        members.map { member in withParser { $0.name(member.name) } }
    }

    /// The value of the member called `name`, decoded now; nil when there is none.
    public subscript(name: String) -> JSONValue? {
        guard let member = member(named: name) else { return nil }
        return withParser { $0.checkedValue(at: member.value) }
    }

    /// The member called `name` when its value is an object, itself read lazily: reading one
    /// nested member does not build the whole nested dictionary.
    public func object(_ name: String) -> LazyJSONObject? {
        guard let member = member(named: name), text[member.value.lowerBound] == UInt8(ascii: "{") else { return nil }
        // The text was checked when this object was made; listing the members cannot fail.
        let members = withParser { parser in (try? parser.members(ofObjectAt: member.value)) ?? [] }
        return LazyJSONObject(text: text, members: members)
    }

    /// True when the object has a member called `name`.
    public func contains(_ name: String) -> Bool {
        member(named: name) != nil
    }

    /// Every member, decoded.
    public var dictionary: [String: JSONValue] {
        var result = [String: JSONValue](minimumCapacity: members.count)
        withParser { parser in
            for member in members { result[parser.name(member.name)] = parser.checkedValue(at: member.value) }
        }
        return result
    }

    private func member(named name: String) -> JSONParser.Member? {
        enum Lookup {
            case found(JSONParser.Member)
            case absent
            /// The byte comparison cannot decide: a name is not plain ASCII.
            case undecided
        }
        // Two plain ASCII names are equal exactly when their bytes are; every other pair is
        // compared as strings (canonical equivalence can make different bytes equal).
        let lookup = name.utf8.withContiguousStorageIfAvailable { wanted -> Lookup in
            guard !wanted.contains(where: { $0 >= 0x80 }) else { return .undecided }
            return withParser { parser -> Lookup in
                for member in members {
                    guard member.name.plain else { return .undecided }
                    if JSONParser.sameBytes(parser.nameBytes(member.name), wanted) { return .found(member) }
                }
                return .absent
            }
        }
        switch lookup {
        case .found(let member): return member
        case .absent: return nil
        case .undecided, nil: return withParser { parser in members.first { parser.name($0.name) == name } }
        }
    }

    /// A parser over the text, which was checked in full (duplicates included) when this object
    /// was made, so it need not look for duplicates again.
    private func withParser<Result>(_ body: (inout JSONParser) -> Result) -> Result {
        text.withUnsafeBufferPointer { buffer in
            var parser = JSONParser(buffer, rejectDuplicateKeys: false)
            return body(&parser)
        }
    }
}

extension JSONParser {
    /// The name of a member the initialiser checked; decoding it cannot fail.
    fileprivate func name(_ token: StringToken) -> String {
        (try? string(token)) ?? ""
    }

    /// The value of a member the initialiser checked; decoding it cannot fail.
    fileprivate mutating func checkedValue(at range: Range<Int>) -> JSONValue {
        (try? parseValue(at: range)) ?? .null
    }
}
