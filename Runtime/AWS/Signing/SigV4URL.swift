/// The parts of an `http(s)://host[:port]/path?query` URL the signer needs.
struct SigV4URL {
    /// `host`, or `host:port` when the port is not the scheme's default.
    let hostHeader: String
    /// As written, percent-encoding kept; empty for none.
    let path: String
    /// As written, without `?`.
    let query: String

    init(_ url: String) throws(SigV4Error) {
        let scheme: String
        let rest: Substring
        if url.hasPrefix("https://") {
            (scheme, rest) = ("https", url.dropFirst(8))
        } else if url.hasPrefix("http://") {
            (scheme, rest) = ("http", url.dropFirst(7))
        } else {
            throw .unsupportedURL("only http and https URLs are signed")
        }
        let withoutFragment = rest.prefix { $0 != "#" }
        let authority = withoutFragment.prefix { $0 != "/" && $0 != "?" }
        guard !authority.isEmpty, !authority.contains("@") else { throw .unsupportedURL("the URL has no host") }
        let defaultPort = scheme == "https" ? ":443" : ":80"
        hostHeader =
            authority.hasSuffix(defaultPort) ? String(authority.dropLast(defaultPort.count)) : String(authority)
        let target = withoutFragment.dropFirst(authority.count)
        let pathPart = target.prefix { $0 != "?" }
        path = String(pathPart)
        query = target.count > pathPart.count ? String(target.dropFirst(pathPart.count + 1)) : ""
    }
}
