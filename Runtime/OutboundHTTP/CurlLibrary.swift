import CCurl

/// libcurl, which the HTTPS client loads at run time (see CCurl) rather than links.
enum CurlLibrary {
    /// The Debian package that has `libcurl.so.4` (built with OpenSSL).
    static let package = "libcurl4"

    /// Loads the library, once per process; when it cannot, throws one line that says why and
    /// which package to install.
    static func load() throws(OutboundHTTPError) {
        if let reason = gatehouse_curl_load() {
            throw .libraryUnavailable(unavailable(reason: String(cString: reason)))
        }
    }

    /// What a failed load is reported as: the library, the loader's reason, the package.
    static func unavailable(reason: String) -> String {
        "\(GATEHOUSE_CURL_LIBRARY) could not be loaded (\(reason)): install it with `apt-get install \(package)`"
    }
}
