/// An API's CORS settings: `CorsConfiguration` of an `AWS::Serverless::HttpApi`, or `Cors` of
/// an `AWS::Serverless::Api` (whose quoted values are unquoted here).
public struct CORSConfiguration: Sendable, Equatable {
    /// Origins allowed, exactly as browsers send them, or `*`.
    public let allowOrigins: [String]
    /// Methods, upper-cased, or `*`.
    public let allowMethods: [String]
    /// Request headers, lower-cased, or `*`.
    public let allowHeaders: [String]
    /// Response headers a browser may read.
    public let exposeHeaders: [String]
    /// Seconds a browser may keep a preflight answer.
    public let maxAge: Int?
    public let allowCredentials: Bool

    public init(
        allowOrigins: [String], allowMethods: [String], allowHeaders: [String], exposeHeaders: [String] = [],
        maxAge: Int? = nil, allowCredentials: Bool = false
    ) {
        self.allowOrigins = allowOrigins
        self.allowMethods = allowMethods.map { $0.uppercased() }
        self.allowHeaders = allowHeaders.map { $0.lowercased() }
        self.exposeHeaders = exposeHeaders
        self.maxAge = maxAge
        self.allowCredentials = allowCredentials
    }

    /// The `Access-Control-Allow-Origin` value for a request from `origin`; nil when the
    /// origin is not allowed.
    public func allowedOrigin(_ origin: String) -> String? {
        if allowOrigins.contains(origin) { return origin }
        // Never the caller's origin reflected for `*`: with credentials that would hand every
        // site the user's session (the template reader refuses `*` with credentials).
        return allowOrigins.contains("*") ? "*" : nil
    }
}
