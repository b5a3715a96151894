/// The `host:port` of the Runtime API, as given in `AWS_LAMBDA_RUNTIME_API`.
public struct RuntimeAPIEndpoint: Sendable, Equatable {
    /// The host name or address (IPv6 without brackets).
    public let host: String
    /// The TCP port.
    public let port: Int

    /// Parses `host:port` or `[v6-address]:port`; nil when it is not of that form.
    public init?(_ value: String) {
        guard let colon = value.lastIndex(of: ":") else { return nil }
        var host = String(value[..<colon])
        guard let port = Int(value[value.index(after: colon)...]), (1...65535).contains(port) else { return nil }
        if host.hasPrefix("[") && host.hasSuffix("]") {
            host = String(host.dropFirst().dropLast())
        }
        guard !host.isEmpty else { return nil }
        self.host = host
        self.port = port
    }

    /// The value for the `Host` header.
    var hostHeader: String {
        host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }
}
