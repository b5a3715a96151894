/// An email address as users are keyed by it: trimmed and lower-cased, so `Ada@Example.com `
/// and `ada@example.com` are one account.
public struct EmailAddress: Sendable, Hashable, CustomStringConvertible {
    /// The normalised address.
    public let value: String

    /// Normalises `text`; nil when it cannot be an address (one `@` with text on both sides, a
    /// dot in the domain, no white space or control characters, at most 254 characters).
    public init?(_ text: String) {
        let trimmed = text.trimmingWhitespace().lowercased()
        guard trimmed.utf8.count <= 254,
            !trimmed.unicodeScalars.contains(where: { $0.value <= 0x20 || $0.value == 0x7F })
        else { return nil }
        let parts = trimmed.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, parts[1].contains("."), !parts[1].hasPrefix("."),
            !parts[1].hasSuffix(".")
        else { return nil }
        value = trimmed
    }

    public var description: String { value }
}

extension String {
    fileprivate func trimmingWhitespace() -> String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }) else { return "" }
        let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })!
        return String(scalars[first...last])
    }
}
