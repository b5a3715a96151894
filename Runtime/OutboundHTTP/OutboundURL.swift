/// The parts of a request URL the client checks and keys its connections by.
struct OutboundURL: Sendable, Equatable {
    /// `https` or `http`.
    let scheme: String
    /// As written, without brackets for IPv6; lower-cased.
    let host: String
    let port: Int

    /// `scheme://host:port`: one kept-alive handle per origin.
    var origin: String { "\(scheme)://\(host.contains(":") ? "[\(host)]" : host):\(port)" }

    /// Parses `url`; plain `http` only to a loopback host unless `allowsPlainHTTP`.
    init(_ url: String, allowsPlainHTTP: Bool = false) throws(OutboundHTTPError) {
        let scheme: String
        let rest: Substring
        if url.hasPrefix("https://") {
            (scheme, rest) = ("https", url.dropFirst(8))
        } else if url.hasPrefix("http://") {
            (scheme, rest) = ("http", url.dropFirst(7))
        } else {
            throw .unsupportedURL("only https:// URLs are fetched")
        }
        let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        guard !authority.contains("@") else { throw .unsupportedURL("credentials in a URL are not sent") }
        guard !authority.contains(where: { $0 == " " || $0 == "\\" || $0.asciiValue.map { $0 < 0x21 } ?? true })
        else { throw .unsupportedURL("the host has characters no host name has") }
        let (host, portText) = try Self.split(authority)
        guard !host.isEmpty else { throw .unsupportedURL("no host") }
        let defaultPort = scheme == "https" ? 443 : 80
        guard let port = portText.map({ Int($0) }) ?? defaultPort, (1...65535).contains(port) else {
            throw .unsupportedURL("the port is not a number from 1 to 65535")
        }
        self.scheme = scheme
        self.host = host.lowercased()
        self.port = port
        if scheme == "http" && !allowsPlainHTTP && !isLoopback {
            throw .unsupportedURL("plain http:// is only for a loopback host (\(self.host)); use https://")
        }
    }

    /// 127.0.0.0/8, `localhost` and `::1`.
    var isLoopback: Bool {
        host == "localhost" || host == "::1" || host.hasPrefix("127.") && host.split(separator: ".").count == 4
    }

    private static func split(_ authority: Substring) throws(OutboundHTTPError) -> (String, Substring?) {
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { throw .unsupportedURL("an unclosed [ in the host") }
            let host = String(authority[authority.index(after: authority.startIndex)..<close])
            let after = authority[authority.index(after: close)...]
            if after.isEmpty { return (host, nil) }
            guard after.hasPrefix(":") else { throw .unsupportedURL("text after the IPv6 host") }
            return (host, after.dropFirst())
        }
        guard let colon = authority.lastIndex(of: ":") else { return (String(authority), nil) }
        return (String(authority[..<colon]), authority[authority.index(after: colon)...])
    }
}
