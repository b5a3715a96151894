/// An email address as users are keyed by it: trimmed, its domain case-folded, its local part
/// kept as written. `ada@Example.COM` and `ada@example.com` are one account; `Ada@example.com`
/// is another, because a mail server may treat local parts as case-sensitive (RFC 5321), and
/// folding them with Unicode's rules would merge addresses that are not the same mailbox (a
/// Kelvin sign `K` would become `k`, a provider-verified `\u{212A}evin@` would sign in as `kevin@`).
public struct EmailAddress: Sendable, Hashable, CustomStringConvertible {
    /// The normalised address.
    public let value: String

    /// Normalises `text`; nil when it cannot be an address (one `@` with text on both sides, a
    /// dot in the domain, no white space or control characters, at most 254 characters).
    ///
    /// The domain is lower-cased with Unicode's case mapping: the Kelvin sign becomes `k`, as
    /// IDNA maps it, and `ß` stays `ß`, as IDNA2008 keeps it (`straße.de` and `strasse.de` are
    /// different domains).
    public init?(_ text: String) {
        let trimmed = text.trimmingWhitespace()
        guard trimmed.utf8.count <= 254,
            !trimmed.unicodeScalars.contains(where: { $0.value <= 0x20 || $0.value == 0x7F })
        else { return nil }
        let parts = trimmed.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, parts[1].contains("."), !parts[1].hasPrefix("."),
            !parts[1].hasSuffix(".")
        else { return nil }
        value = "\(parts[0])@\(parts[1].lowercased())"
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

extension EmailAddress {
    /// `text` as an address; `SignInError.invalidField("email")` when it is not one.
    public static func required(_ text: String) throws(SignInError) -> EmailAddress {
        guard let email = EmailAddress(text) else { throw .invalidField("email", "is not an email address") }
        return email
    }
}
