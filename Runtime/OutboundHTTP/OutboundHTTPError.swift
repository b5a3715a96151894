/// Why an outbound call failed. Descriptions name the host, never the path or query (which may
/// carry a code or a token), and never a header or body.
public enum OutboundHTTPError: Error, Sendable, Equatable, CustomStringConvertible {
    /// libcurl could not be loaded or started: the reason, and for a library that did not load
    /// the package to install.
    case libraryUnavailable(String)
    /// Not an absolute `https://` URL, a plain `http://` one to a host other than loopback, or
    /// one with credentials in it.
    case unsupportedURL(String)
    /// No TCP connection within the connect deadline, or refused.
    case connectFailed(host: String, reason: String)
    /// The TLS handshake failed or the server's certificate was not trusted for the host:
    /// libcurl's and OpenSSL's reason.
    case tlsFailed(host: String, reason: String)
    /// No complete answer within the deadline.
    case timedOut(host: String, milliseconds: Int)
    /// The server answered 3xx: redirects are not followed.
    case redirected(host: String, status: Int)
    /// The body was larger than the cap.
    case tooLarge(host: String, limit: Int)
    /// Any other transport failure: libcurl's reason.
    case transport(host: String, reason: String)

    public var description: String {
        switch self {
        case .libraryUnavailable(let reason): "the HTTPS client cannot start: \(reason)"
        case .unsupportedURL(let reason): "unsupported URL: \(reason)"
        case .connectFailed(let host, let reason): "cannot connect to \(host): \(reason)"
        case .tlsFailed(let host, let reason): "TLS with \(host) failed: \(reason)"
        case .timedOut(let host, let milliseconds): "\(host) did not answer within \(milliseconds) ms"
        case .redirected(let host, let status): "\(host) answered \(status), a redirect, which is not followed"
        case .tooLarge(let host, let limit): "\(host) sent a body larger than \(limit) bytes"
        case .transport(let host, let reason): "the call to \(host) failed: \(reason)"
        }
    }
}
