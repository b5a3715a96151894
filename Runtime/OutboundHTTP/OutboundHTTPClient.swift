import CCurl
import LambdaRuntime
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The functions' one HTTP client for outbound calls (JWKS, OAuth token endpoints, AWS APIs):
/// blocking, on the calling thread, on libcurl's easy interface loaded at run time.
///
/// - One kept-alive handle per origin (more only while calls to it overlap), so a warm function
///   reuses its connection and TLS session from one invocation to the next.
/// - TLS verification always on; redirects never followed (a 3xx fails the call); proxy
///   variables ignored unless configured.
/// - Each call ends by its total deadline, the configuration's or the caller's, never past the
///   current invocation's (`InvocationDeadline`); a body over the cap fails it.
public final class OutboundHTTPClient: Sendable {
    /// The process's client, configured from its environment (`SSL_CERT_FILE`, and the proxy and
    /// timeout settings of `OutboundHTTPConfiguration(environment:)`).
    public static let shared = OutboundHTTPClient(
        configuration: OutboundHTTPConfiguration(environment: processEnvironment()))

    public let configuration: OutboundHTTPConfiguration
    private let idle = Mutex<[String: [CurlHandle]]>([:])

    public init(configuration: OutboundHTTPConfiguration = OutboundHTTPConfiguration()) {
        self.configuration = configuration
    }

    /// Loads libcurl now, so that the first call does not pay for it: during a cold start, on a
    /// thread that has nothing else to do.
    public static func preload() throws(OutboundHTTPError) {
        try CurlLibrary.load()
    }

    /// Starts loading libcurl on a thread of its own and returns at once: the first thing a
    /// function that calls out at start does, so the load (about 3 ms for Debian's libcurl and
    /// its 30 libraries here) runs beside the rest of its cold start. A call that comes before
    /// the load is done waits for it; a load that fails is reported by that call.
    public static func preloadInBackground() {
        OwnThread.start { _ = gatehouse_curl_load() }
    }

    /// Sends `request` and waits, blocking the calling thread, for the whole answer: at most
    /// `timeout` (and never past the configuration's timeout or the invocation's deadline), at
    /// most `maximumBytes` of body (and never more than the configuration's cap).
    public func send(
        _ request: OutboundRequest, timeout: Duration? = nil, maximumBytes: Int? = nil
    ) throws(OutboundHTTPError) -> OutboundResponse {
        try send(
            request, timeout: timeout, maximumBytes: maximumBytes,
            remainingMilliseconds: InvocationDeadline.remainingMilliseconds())
    }

    private func send(
        _ request: OutboundRequest, timeout: Duration?, maximumBytes: Int?, remainingMilliseconds: Int64?
    ) throws(OutboundHTTPError) -> OutboundResponse {
        let target = try OutboundURL(request.url)
        var limits = try self.limits(timeout: timeout, remaining: remainingMilliseconds, host: target.host)
        if let maximumBytes { limits.maximumBytes = min(limits.maximumBytes, maximumBytes) }
        let handle = try take(for: target.origin)
        defer { giveBack(handle, for: target.origin) }
        let collector = ResponseCollector(limit: limits.maximumBytes)
        let outcome = withExtendedLifetime(collector) {
            handle.perform(request, limits: limits, configuration: configuration, into: collector)
        }
        if let error = Self.error(for: outcome, collector: collector, host: target.host, limits: limits) {
            throw error
        }
        if (300..<400).contains(outcome.status) { throw .redirected(host: target.host, status: outcome.status) }
        return OutboundResponse(status: outcome.status, headers: collector.headers, body: collector.body)
    }

    /// `send`, from async code that must not hold a thread of Swift's shared pool while it
    /// waits: the call blocks a thread of its own, started for it.
    public func sendOnOwnThread(
        _ request: OutboundRequest, timeout: Duration? = nil, maximumBytes: Int? = nil
    ) async throws(OutboundHTTPError) -> OutboundResponse {
        // Task-locals stay behind on this task: the invocation's deadline goes along as a value.
        let remaining = InvocationDeadline.remainingMilliseconds()
        let result = await OwnThread.run { [self] in
            Result { () throws(OutboundHTTPError) in
                try send(request, timeout: timeout, maximumBytes: maximumBytes, remainingMilliseconds: remaining)
            }
        }
        return try result.get()
    }

    /// The tightest of the call's, the configuration's and the invocation's deadlines.
    private func limits(
        timeout: Duration?, remaining: Int64?, host: String
    ) throws(OutboundHTTPError) -> CurlHandle.Limits {
        var total = Self.milliseconds(configuration.timeout)
        if let timeout { total = min(total, Self.milliseconds(timeout)) }
        if let remaining { total = min(total, Int(remaining)) }
        guard total > 0 else { throw .timedOut(host: host, milliseconds: 0) }
        return CurlHandle.Limits(
            totalMilliseconds: total, connectMilliseconds: min(total, Self.milliseconds(configuration.connectTimeout)),
            maximumBytes: configuration.maximumResponseBytes)
    }

    private static func milliseconds(_ duration: Duration) -> Int {
        let (seconds, attoseconds) = duration.components
        return max(0, Int(seconds) * 1000 + Int(attoseconds / 1_000_000_000_000_000))
    }

    private static func error(
        for outcome: CurlHandle.Outcome, collector: ResponseCollector, host: String, limits: CurlHandle.Limits
    ) -> OutboundHTTPError? {
        switch outcome.code {
        case CURLE_OK: return nil
        case CURLE_WRITE_ERROR where collector.exceeded, CURLE_FILESIZE_EXCEEDED:
            return .tooLarge(host: host, limit: limits.maximumBytes)
        case CURLE_OPERATION_TIMEDOUT: return .timedOut(host: host, milliseconds: limits.totalMilliseconds)
        case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_CONNECT:
            return .connectFailed(host: host, reason: outcome.reason)
        case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CACERT_BADFILE, CURLE_SSL_CERTPROBLEM,
            CURLE_SSL_CIPHER, CURLE_SSL_ISSUER_ERROR, CURLE_SSL_PINNEDPUBKEYNOTMATCH, CURLE_SSL_INVALIDCERTSTATUS:
            return .tlsFailed(host: host, reason: outcome.reason)
        default: return .transport(host: host, reason: outcome.reason)
        }
    }

    private func take(for origin: String) throws(OutboundHTTPError) -> CurlHandle {
        if let handle = idle.withLock({ $0[origin]?.popLast() }) { return handle }
        return try CurlHandle()
    }

    /// Keeps a few idle handles per origin; the rest close.
    private func giveBack(_ handle: CurlHandle, for origin: String) {
        idle.withLock { idle in
            if idle[origin, default: []].count < 4 { idle[origin, default: []].append(handle) }
        }
    }

    private static func processEnvironment() -> [String: String] {
        var environment: [String: String] = [:]
        for name in ["SSL_CERT_FILE", "GATEHOUSE_OUTBOUND_PROXY", "GATEHOUSE_OUTBOUND_TIMEOUT_SECONDS"] {
            if let value = getenv(name) { environment[name] = String(cString: value) }
        }
        return environment
    }
}
