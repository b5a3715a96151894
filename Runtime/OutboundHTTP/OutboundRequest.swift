/// One HTTP request a function sends: a method, an absolute `https://` URL (plain `http://` only
/// to a loopback host, for local runs), headers and a body.
public struct OutboundRequest: Sendable {
    public var method: String
    public var url: String
    /// Sent in order, as given. `Host`, `Content-Length` and `Connection` are libcurl's.
    public var headers: [(name: String, value: String)]
    public var body: [UInt8]

    public init(method: String = "GET", url: String, headers: [(name: String, value: String)] = [], body: [UInt8] = [])
    {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }
}
