import AsyncHTTPClient
import JOSE
import NIOCore
import NIOHTTP1

/// Fetches JWKS documents over HTTPS or plain HTTP (for local runs) with AsyncHTTPClient,
/// within a time limit and a size cap. Redirects are not followed: a key set is fetched from the
/// configured URL or not at all (a 3xx is a failed fetch).
public struct HTTPJWKSFetcher: JWKSFetching {
    /// The client every fetcher uses unless given another: the system's trust store, no redirects.
    public static let client = HTTPClient(
        eventLoopGroupProvider: .singleton, configuration: .init(redirectConfiguration: .disallow))

    /// The longest a whole fetch (connect, headers, body) may take.
    public var timeout: Duration
    /// The largest document accepted, in bytes.
    public var maximumBytes: Int
    private let client: HTTPClient

    /// `client` must not follow redirects (see `HTTPJWKSFetcher.client`).
    public init(
        timeout: Duration = .seconds(3), maximumBytes: Int = 512 * 1024, client: HTTPClient = HTTPJWKSFetcher.client
    ) {
        self.timeout = timeout
        self.maximumBytes = maximumBytes
        self.client = client
    }

    public func fetchJWKS(from url: String) async throws -> [UInt8] {
        let timeout = self.timeout
        return try await withThrowingTaskGroup(of: [UInt8]?.self) { group in
            group.addTask {
                do {
                    return try await fetch(url)
                } catch let error as HTTPClientError where error == .deadlineExceeded {
                    // The client's own deadline is the same limit and may fire first: one error.
                    return nil
                }
            }
            group.addTask {
                try await Task.sleep(for: timeout)
                return nil
            }
            defer { group.cancelAll() }
            guard let body = try await group.next() ?? nil else {
                throw JWKSFetchError.timedOut(after: timeout)
            }
            return body
        }
    }

    private func fetch(_ url: String) async throws -> [UInt8] {
        var request = HTTPClientRequest(url: url)
        request.headers.add(name: "accept", value: "application/json")
        let response = try await client.execute(request, timeout: .init(timeout))
        guard response.status == .ok else { throw JWKSFetchError.status(Int(response.status.code)) }
        if let length = response.headers.first(name: "content-length").flatMap(Int.init), length > maximumBytes {
            throw JWKSFetchError.tooLarge(limit: maximumBytes)
        }
        do {
            return Array(buffer: try await response.body.collect(upTo: maximumBytes))
        } catch is NIOTooManyBytesError {
            throw JWKSFetchError.tooLarge(limit: maximumBytes)
        }
    }
}

/// Why a JWKS fetch failed (besides the transport's own errors).
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
