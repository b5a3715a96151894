import CCurl

/// What an empty body points at: a null CURLOPT_POSTFIELDS would make libcurl read the body
/// from its read callback (stdin by default).
nonisolated(unsafe) private let emptyBody = UnsafeMutablePointer<UInt8>.allocate(capacity: 1)

/// One libcurl easy handle: its connection cache keeps the connection to an origin alive from
/// one call to the next. Used by one thread at a time (the client's pool hands it out).
final class CurlHandle: @unchecked Sendable {
    private let handle: OpaquePointer
    /// libcurl writes its detailed reason for a failure here (CURLOPT_ERRORBUFFER).
    private let errorText = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE) + 1)

    init() throws(OutboundHTTPError) {
        try CurlLibrary.load()
        guard let handle = gatehouse_curl_easy_init() else {
            throw .libraryUnavailable("curl_easy_init returned no handle")
        }
        self.handle = handle
    }

    deinit {
        gatehouse_curl_easy_cleanup(handle)
        errorText.deallocate()
    }

    /// What one transfer came to: libcurl's result, the status, libcurl's reason text.
    struct Outcome {
        let code: CURLcode
        let status: Int
        let reason: String
    }

    /// Runs `request` to `url`'s origin with the given limits, collecting into `collector`.
    func perform(
        _ request: OutboundRequest, limits: Limits, configuration: OutboundHTTPConfiguration,
        into collector: ResponseCollector
    ) -> Outcome {
        gatehouse_curl_easy_reset(handle)
        errorText[0] = 0
        var headers: UnsafeMutablePointer<curl_slist>?
        for (name, value) in request.headers { headers = gatehouse_curl_slist_append(headers, "\(name): \(value)") }
        // libcurl sends `Expect: 100-continue` for larger bodies and waits for an answer; no
        // server here needs it.
        headers = gatehouse_curl_slist_append(headers, "Expect:")
        defer { gatehouse_curl_slist_free_all(headers) }
        let context = Unmanaged.passUnretained(collector).toOpaque()
        let code = request.body.withUnsafeBytes { body -> CURLcode in
            request.url.withCString { url in
                set(CURLOPT_URL, url)
                set(CURLOPT_HTTPHEADER, headers)
                setSecurity(configuration)
                setLimits(limits)
                setMethod(request.method, body: body)
                set(CURLOPT_ERRORBUFFER, errorText)
                _ = gatehouse_curl_setopt_data_callback(handle, CURLOPT_WRITEFUNCTION, ResponseCollector.writeCallback)
                set(CURLOPT_WRITEDATA, context)
                _ = gatehouse_curl_setopt_data_callback(
                    handle, CURLOPT_HEADERFUNCTION, ResponseCollector.headerCallback)
                set(CURLOPT_HEADERDATA, context)
                return gatehouse_curl_easy_perform(handle)
            }
        }
        var status = 0
        _ = gatehouse_curl_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &status)
        let reason =
            errorText[0] != 0 ? String(cString: errorText) : String(cString: gatehouse_curl_easy_strerror(code))
        return Outcome(code: code, status: status, reason: reason)
    }

    /// The deadlines and the size cap of one call.
    struct Limits {
        let totalMilliseconds: Int
        let connectMilliseconds: Int
        var maximumBytes: Int
    }

    private func setSecurity(_ configuration: OutboundHTTPConfiguration) {
        set(CURLOPT_NOSIGNAL, 1)
        set(CURLOPT_SSL_VERIFYPEER, 1)
        set(CURLOPT_SSL_VERIFYHOST, 2)
        set(CURLOPT_FOLLOWLOCATION, 0)
        // Where the linked libcurl knows the option (7.85 and later); the client checks the
        // scheme itself before any call, so an older one is no less strict.
        _ = gatehouse_curl_setopt_pointer(handle, CURLOPT_PROTOCOLS_STR, "http,https")
        if let bundle = configuration.caBundle {
            bundle.withCString { set(CURLOPT_CAINFO, $0) }
            set(CURLOPT_CAPATH, nil)
        }
        // An empty proxy turns off libcurl's reading of the proxy variables.
        (configuration.proxy ?? "").withCString { set(CURLOPT_PROXY, $0) }
    }

    private func setLimits(_ limits: Limits) {
        set(CURLOPT_TIMEOUT_MS, limits.totalMilliseconds)
        set(CURLOPT_CONNECTTIMEOUT_MS, limits.connectMilliseconds)
        _ = gatehouse_curl_setopt_off(handle, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(limits.maximumBytes))
    }

    private func setMethod(_ method: String, body: UnsafeRawBufferPointer) {
        switch method {
        case "GET" where body.isEmpty: set(CURLOPT_HTTPGET, 1)
        case "HEAD": set(CURLOPT_NOBODY, 1)
        default:
            if method != "POST" { method.withCString { set(CURLOPT_CUSTOMREQUEST, $0) } }
            set(CURLOPT_POST, 1)
            _ = gatehouse_curl_setopt_off(handle, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(body.count))
            // libcurl copies nothing: the pointer must stay valid until perform returns, which it
            // does within the caller's withUnsafeBytes.
            set(CURLOPT_POSTFIELDS, body.baseAddress ?? UnsafeRawPointer(emptyBody))
        }
    }

    private func set(_ option: CURLoption, _ value: Int) {
        _ = gatehouse_curl_setopt_long(handle, option, value)
    }

    private func set(_ option: CURLoption, _ value: UnsafeRawPointer?) {
        _ = gatehouse_curl_setopt_pointer(handle, option, value)
    }
}
