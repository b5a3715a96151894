/// Reads settings from environment variables: trimmed, an empty value counting as unset.
public struct EnvironmentReader: Sendable {
    let environment: [String: String]

    public init(environment: [String: String]) {
        self.environment = environment
    }

    /// The value of `name`, when set.
    public func optional(_ name: String) -> String? {
        guard let value = environment[name]?.trimmed, !value.isEmpty else { return nil }
        return value
    }

    /// The value of `name`; `SettingsError.missing` when unset.
    public func required(_ name: String) throws(SettingsError) -> String {
        guard let value = optional(name) else { throw .missing(name) }
        return value
    }

    /// The value of `name`, else of `fallback`; `SettingsError.missing(name)` when neither is set.
    public func required(_ name: String, or fallback: String) throws(SettingsError) -> String {
        guard let value = optional(name) ?? optional(fallback) else { throw .missing(name) }
        return value
    }

    /// Whether the switch `name` is on: `enabled`; absent or `disabled`, off; anything else is
    /// `SettingsError.invalid`, naming the value (the template's `enabled|disabled` parameters).
    public func isEnabled(_ name: String) throws(SettingsError) -> Bool {
        switch environment[name] ?? "disabled" {
        case "enabled": return true
        case "disabled": return false
        case let other: throw .invalid(name, "\"\(other.prefix(16))\" is not enabled or disabled")
        }
    }

    /// A whole number of seconds, at least zero.
    func seconds(_ name: String, default value: Double) throws(SettingsError) -> Double {
        guard let text = optional(name) else { return value }
        guard let number = Int(text), number >= 0 else {
            throw .invalid(name, "\"\(text)\" is not a whole number of seconds")
        }
        return Double(number)
    }

    /// `JWKS_FETCH_TIMEOUT_SECONDS`: the longest one fetch of a provider's or issuer's keys may
    /// take, at least 1 s; 3 s by default.
    func jwksFetchTimeout() throws(SettingsError) -> Double {
        let timeout = try seconds("JWKS_FETCH_TIMEOUT_SECONDS", default: 3)
        guard timeout >= 1 else { throw .invalid("JWKS_FETCH_TIMEOUT_SECONDS", "must be at least 1 second") }
        return timeout
    }

    /// Comma- or space-separated items.
    func list(_ text: String) -> [String] {
        text.split(whereSeparator: { $0 == "," || $0 == " " }).map(String.init)
    }
}

extension String {
    fileprivate var trimmed: String {
        String(drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
    }
}
