import JOSE
import OutboundHTTP

/// Fetches JWKS documents with the functions' HTTPS client (`OutboundHTTPClient`): HTTPS, or
/// plain HTTP to a loopback host for local runs, within a time limit and a size cap. Redirects
/// are not followed: a key set is fetched from the configured URL or not at all.
///
/// The client blocks its thread; the fetch runs on a thread of its own so that a background
/// refresh neither holds the runtime's thread nor one of Swift's shared pool.
public struct HTTPJWKSFetcher: JWKSFetching {
    /// The longest a whole fetch (connect, TLS, headers, body) may take.
    public var timeout: Duration
    /// The largest document accepted, in bytes.
    public var maximumBytes: Int
    private let client: OutboundHTTPClient

    public init(
        timeout: Duration = .seconds(3), maximumBytes: Int = 512 * 1024,
        client: OutboundHTTPClient = .shared
    ) {
        self.timeout = timeout
        self.maximumBytes = maximumBytes
        self.client = client
    }

    public func fetchJWKS(from url: String) async throws -> [UInt8] {
        let request = OutboundRequest(url: url, headers: [("accept", "application/json")])
        let response: OutboundResponse
        do {
            response = try await client.sendOnOwnThread(request, timeout: timeout, maximumBytes: maximumBytes)
        } catch .timedOut {
            throw JWKSFetchError.timedOut(after: timeout)
        } catch .tooLarge {
            throw JWKSFetchError.tooLarge(limit: maximumBytes)
        }
        guard response.status == 200 else { throw JWKSFetchError.status(response.status) }
        return response.body
    }
}

/// Why a JWKS fetch failed (besides the transport's own errors, `OutboundHTTPError`).
public enum JWKSFetchError: Error, Sendable, Equatable, CustomStringConvertible {
    case status(Int)
    case tooLarge(limit: Int)
    case timedOut(after: Duration)

    public var description: String {
        switch self {
        case .status(let code): "the server answered \(code), not 200"
        case .tooLarge(let limit): "the document is larger than \(limit) bytes"
        case .timedOut(let after): "no complete answer within \(after)"
        }
    }
}
