/// The family of the client that sent a request, and nothing more of its `User-Agent`: a
/// fixed list, so that neither a version, a device model nor any text the client chose is kept.
public enum UserAgentFamily: String, Sendable, CaseIterable, Codable {
    // Supabase's client libraries, by their `X-Client-Info` header.
    case supabaseJS = "supabase-js"
    case supabasePy = "supabase-py"
    case supabaseSwift = "supabase-swift"
    case supabaseDart = "supabase-dart"
    case supabaseKotlin = "supabase-kt"
    // Browsers, most specific first (Edge and Opera say Chrome too, Chrome says Safari).
    case edge = "Edge"
    case opera = "Opera"
    case firefox = "Firefox"
    case chrome = "Chrome"
    case safari = "Safari"
    // HTTP libraries and tools.
    case okhttp
    case cfNetwork = "CFNetwork"
    case curl
    case pythonRequests = "python-requests"
    case pythonHTTPX = "python-httpx"
    case go = "Go"
    case node = "Node"
    case dart = "Dart"
    /// A `User-Agent` none of the others matches.
    case other

    /// The family of a request's `User-Agent` and Supabase's `X-Client-Info` (which names the
    /// library, e.g. `supabase-py/2.10.0`, and wins); nil when neither was sent.
    public init?(userAgent: String?, clientInfo: String? = nil) {
        if let clientInfo, let library = Self.supabaseLibraries.first(where: { clientInfo.hasPrefix($0.rawValue) }) {
            self = library
            return
        }
        guard let userAgent, !userAgent.isEmpty else { return nil }
        self = Self.tokens.first { userAgent.contains($0.token) }?.family ?? .other
    }

    private static let supabaseLibraries: [Self] = [
        .supabaseJS, .supabasePy, .supabaseSwift, .supabaseDart, .supabaseKotlin,
    ]

    /// The text that names each family in a `User-Agent`, in the order they are tried.
    private static let tokens: [(token: String, family: Self)] = [
        ("Edg/", .edge), ("OPR/", .opera), ("Firefox/", .firefox), ("Chrome/", .chrome), ("CriOS/", .chrome),
        ("okhttp", .okhttp), ("CFNetwork", .cfNetwork), ("Safari/", .safari), ("curl/", .curl),
        ("python-requests", .pythonRequests), ("python-httpx", .pythonHTTPX), ("Go-http-client", .go),
        ("node", .node), ("undici", .node), ("Dart/", .dart),
    ]
}
