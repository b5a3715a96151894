import LambdaRuntime

/// One route of the local API: an `HttpApi` (HTTP API) or `Api` (REST API) event of a function.
public struct HTTPRoute: Sendable, Equatable {
    /// Which kind of API Gateway API serves it.
    public enum Kind: String, Sendable {
        case httpAPI = "HttpApi"
        case rest = "Api"
    }

    /// The function's logical id.
    public let function: String
    /// The event's logical id, as the template names it.
    public let event: String
    public let kind: Kind
    /// Upper case, or `ANY`.
    public let method: String
    /// `/users/{id}`, `/files/{proxy+}`, or `$default` (HTTP API).
    public let path: String
    /// The event format the function gets: 2.0 or 1.0 (always 1.0 for REST).
    public let payloadFormat: PayloadFormat
    /// The Lambda authorizer's name, nil for none.
    public let authorizer: String?
    /// The stage events name (`$default` for an HTTP API; a REST API's `StageName`, `Prod` for
    /// the implicit one).
    public let stage: String
    /// A REST API's `BinaryMediaTypes` (`image/png`, `image/*`, `*/*`): request bodies of these
    /// types reach the function base64-encoded. HTTP APIs decide by content type themselves.
    public let binaryMediaTypes: [String]
    /// The API's CORS settings, nil for none.
    public let cors: CORSConfiguration?
    /// `Auth.AuthorizationScopes`: with a JWT authorizer, a token must carry one of them.
    public let authorizationScopes: [String]

    public init(
        function: String, event: String, kind: Kind, method: String, path: String, payloadFormat: PayloadFormat,
        authorizer: String?, stage: String? = nil, binaryMediaTypes: [String] = [], cors: CORSConfiguration? = nil,
        authorizationScopes: [String] = []
    ) {
        self.cors = cors
        self.authorizationScopes = authorizationScopes
        self.function = function
        self.event = event
        self.kind = kind
        self.method = method
        self.path = path
        self.payloadFormat = payloadFormat
        self.authorizer = authorizer
        self.stage = stage ?? (kind == .rest ? "Prod" : "$default")
        self.binaryMediaTypes = binaryMediaTypes
    }

    /// `GET /users/me`, or `$default`: what API Gateway puts in `routeKey`.
    public var routeKey: String { path == "$default" ? "$default" : "\(method) \(path)" }
}
