/// A versioned-symbol name such as `GLIBC_2.35` or `GLIBCXX_3.4.29`: a family and numbers,
/// ordered by number within a family.
public struct SymbolVersion: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// `GLIBC`, `GLIBCXX`, `CXXABI`, ...
    public let family: String
    public let numbers: [Int]

    /// Parses `FAMILY_1.2.3`; nil for anything else (`GLIBC_PRIVATE`, `Base`).
    public init?(_ text: String) {
        guard let separator = text.lastIndex(of: "_") else { return nil }
        let parts = text[text.index(after: separator)...].split(separator: ".", omittingEmptySubsequences: false)
        let numbers = parts.compactMap { Int($0) }
        guard !numbers.isEmpty, numbers.count == parts.count else { return nil }
        family = String(text[..<separator])
        self.numbers = numbers
    }

    public init(family: String, _ numbers: Int...) {
        self.family = family
        self.numbers = numbers
    }

    public var description: String { "\(family)_\(numbers.map(String.init).joined(separator: "."))" }

    public static func < (left: SymbolVersion, right: SymbolVersion) -> Bool {
        if left.family != right.family { return left.family < right.family }
        return left.numbers.lexicographicallyPrecedes(right.numbers)
    }
}
