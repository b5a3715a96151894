/// How the functions' HTTPS client calls out. TLS verification is always on and redirects are
/// never followed; neither is a setting.
public struct OutboundHTTPConfiguration: Sendable {
    /// The longest a whole call (connect, TLS, request, answer) may take, unless the current
    /// invocation's deadline comes first.
    public var timeout: Duration
    /// The longest the TCP connect and TLS handshake may take.
    public var connectTimeout: Duration
    /// The largest body accepted, in bytes: a larger one fails the call.
    public var maximumResponseBytes: Int
    /// A PEM file of the CAs to trust instead of the system's; nil for the system's bundle.
    public var caBundle: String?
    /// A proxy to send every call through; nil for none. The `HTTPS_PROXY`-style variables are
    /// ignored: a function's egress is what its configuration says.
    public var proxy: String?

    public init(
        timeout: Duration = .seconds(5), connectTimeout: Duration = .seconds(2),
        maximumResponseBytes: Int = 1 << 20, caBundle: String? = nil, proxy: String? = nil
    ) {
        self.timeout = timeout
        self.connectTimeout = connectTimeout
        self.maximumResponseBytes = maximumResponseBytes
        self.caBundle = caBundle
        self.proxy = proxy
    }

    /// The defaults, with `SSL_CERT_FILE` (as OpenSSL, Python and curl's tool read it) naming the
    /// CA bundle, `GATEHOUSE_OUTBOUND_PROXY` a proxy, and `GATEHOUSE_OUTBOUND_TIMEOUT_SECONDS` a
    /// longer limit for a slow local endpoint (moto_server under load; 1 to 300, the connect limit
    /// with it), each when set and not empty.
    public init(environment: [String: String]) {
        self.init()
        caBundle = environment["SSL_CERT_FILE"].flatMap { $0.isEmpty ? nil : $0 }
        proxy = environment["GATEHOUSE_OUTBOUND_PROXY"].flatMap { $0.isEmpty ? nil : $0 }
        if let text = environment["GATEHOUSE_OUTBOUND_TIMEOUT_SECONDS"], let seconds = Int(text),
            (1...300).contains(seconds)
        {
            timeout = .seconds(seconds)
            connectTimeout = .seconds(seconds)
        }
    }
}

extension OutboundHTTPConfiguration {
    /// For a local server that may answer slowly (moto_server, or a test's server, on a machine
    /// busy with a whole test suite): a minute for the call and for the connect; `caBundle` when
    /// given. The CLI uses it for `--dynamodb-endpoint`; the tests for their local servers.
    public static func patient(caBundle: String? = nil) -> OutboundHTTPConfiguration {
        OutboundHTTPConfiguration(timeout: .seconds(60), connectTimeout: .seconds(60), caBundle: caBundle)
    }
}
