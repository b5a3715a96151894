import JOSE
import JOSEHTTP
import OutboundHTTP
import Synchronization

extension HTTPJWKSFetcher {
    /// A fetcher for tests whose subject is not the time limit. The default 3 s limit was
    /// missed on a loaded CI machine where every suite starts at once (a local server's answer
    /// took longer than that to be scheduled), so these tests wait as long as a user would.
    /// The fetcher's own limit is capped by its client's (5 s, 2 s to connect, by default), so
    /// its client is patient too.
    static var patient: HTTPJWKSFetcher { HTTPJWKSFetcher(timeout: .seconds(60), client: .patient) }
}

extension OutboundHTTPClient {
    /// A client that waits a minute for a local server, to connect as for the whole answer.
    static let patient = OutboundHTTPClient(configuration: .patient())
}

/// An HTTP fetcher whose time limit a test can shorten midway: patient while the server is up,
/// quick once the test has stopped it.
final class AdjustableFetcher: JWKSFetching {
    let timeout = Mutex<Duration>(.seconds(60))

    func fetchJWKS(from url: String) async throws -> [UInt8] {
        try await HTTPJWKSFetcher(timeout: timeout.withLock { $0 }, client: .patient).fetchJWKS(from: url)
    }
}
