import GatehouseJSON
import LambdaRuntime

/// An HTTP API request in payload format 2.0, as API Gateway sends it to a function.
public struct APIGatewayV2Request: Codable, Sendable, Equatable {
    /// `requestContext` of a payload 2.0 event.
    public struct Context: Codable, Sendable, Equatable {
        /// `requestContext.http`.
        public struct HTTP: Codable, Sendable, Equatable {
            public var method: String
            public var path: String
            public var `protocol`: String
            public var sourceIp: String
            public var userAgent: String

            public init(
                method: String, path: String, protocol: String = "HTTP/1.1", sourceIp: String, userAgent: String
            ) {
                self.method = method
                self.path = path
                self.protocol = `protocol`
                self.sourceIp = sourceIp
                self.userAgent = userAgent
            }
        }

        /// `requestContext.authorizer`: what a JWT, Lambda or IAM authorizer left for the function.
        public struct Authorizer: Codable, Sendable, Equatable {
            /// `authorizer.jwt`: the claims and scopes of a JWT authorizer.
            public struct JWT: Codable, Sendable, Equatable {
                public var claims: [String: String]
                public var scopes: [String]

                public init(claims: [String: String], scopes: [String] = []) {
                    self.claims = claims
                    self.scopes = scopes
                }

                public init(from decoder: any Decoder) throws {
                    let container = try decoder.container(keyedBy: CodingKeys.self)
                    claims = try container.decodeMap(.claims)
                    scopes = try container.decodeList(.scopes)
                }
            }

            /// `authorizer.lambda`: the `context` a Lambda authorizer returned.
            public var lambda: [String: JSONValue]?
            public var jwt: JWT?
            public var iam: JSONValue?

            public init(lambda: [String: JSONValue]? = nil, jwt: JWT? = nil, iam: JSONValue? = nil) {
                self.lambda = lambda
                self.jwt = jwt
                self.iam = iam
            }
        }

        public var accountId: String
        public var apiId: String
        public var domainName: String
        public var domainPrefix: String
        public var http: HTTP
        public var requestId: String
        public var routeKey: String
        public var stage: String
        /// `12/Mar/2020:19:03:58 +0000`.
        public var time: String
        /// Milliseconds since the epoch.
        public var timeEpoch: Int64
        public var authorizer: Authorizer?
        public var authentication: JSONValue?

        public init(
            accountId: String, apiId: String, domainName: String, domainPrefix: String, http: HTTP,
            requestId: String, routeKey: String, stage: String, time: String, timeEpoch: Int64,
            authorizer: Authorizer? = nil, authentication: JSONValue? = nil
        ) {
            self.accountId = accountId
            self.apiId = apiId
            self.domainName = domainName
            self.domainPrefix = domainPrefix
            self.http = http
            self.requestId = requestId
            self.routeKey = routeKey
            self.stage = stage
            self.time = time
            self.timeEpoch = timeEpoch
            self.authorizer = authorizer
            self.authentication = authentication
        }
    }

    public var version: String
    public var routeKey: String
    public var rawPath: String
    public var rawQueryString: String
    public var cookies: [String]
    /// Lower-cased names; repeated headers joined with commas.
    public var headers: [String: String]
    /// Repeated parameters joined with commas.
    public var queryStringParameters: [String: String]
    public var pathParameters: [String: String]
    public var stageVariables: [String: String]
    public var requestContext: Context
    public var body: String?
    public var isBase64Encoded: Bool

    public init(
        version: String = "2.0", routeKey: String, rawPath: String, rawQueryString: String = "",
        cookies: [String] = [], headers: [String: String] = [:], queryStringParameters: [String: String] = [:],
        pathParameters: [String: String] = [:], stageVariables: [String: String] = [:],
        requestContext: Context, body: String? = nil, isBase64Encoded: Bool = false
    ) {
        self.version = version
        self.routeKey = routeKey
        self.rawPath = rawPath
        self.rawQueryString = rawQueryString
        self.cookies = cookies
        self.headers = headers
        self.queryStringParameters = queryStringParameters
        self.pathParameters = pathParameters
        self.stageVariables = stageVariables
        self.requestContext = requestContext
        self.body = body
        self.isBase64Encoded = isBase64Encoded
    }

    enum CodingKeys: String, CodingKey {
        case version, routeKey, rawPath, rawQueryString, cookies, headers, queryStringParameters
        case pathParameters, stageVariables, requestContext, body, isBase64Encoded
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        version = try container.decode(String.self, forKey: .version)
        routeKey = try container.decode(String.self, forKey: .routeKey)
        rawPath = try container.decode(String.self, forKey: .rawPath)
        rawQueryString = try container.decodeIfPresent(String.self, forKey: .rawQueryString) ?? ""
        cookies = try container.decodeList(.cookies)
        headers = try container.decodeMap(.headers)
        queryStringParameters = try container.decodeMap(.queryStringParameters)
        pathParameters = try container.decodeMap(.pathParameters)
        stageVariables = try container.decodeMap(.stageVariables)
        requestContext = try container.decode(Context.self, forKey: .requestContext)
        body = try container.decodeIfPresent(String.self, forKey: .body)
        isBase64Encoded = try container.decodeIfPresent(Bool.self, forKey: .isBase64Encoded) ?? false
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(version, forKey: .version)
        try container.encode(routeKey, forKey: .routeKey)
        try container.encode(rawPath, forKey: .rawPath)
        try container.encode(rawQueryString, forKey: .rawQueryString)
        if !cookies.isEmpty { try container.encode(cookies, forKey: .cookies) }
        try container.encode(headers, forKey: .headers)
        try container.encodeMapOmittingEmpty(queryStringParameters, forKey: .queryStringParameters)
        try container.encodeMapOmittingEmpty(pathParameters, forKey: .pathParameters)
        try container.encodeMapOmittingEmpty(stageVariables, forKey: .stageVariables)
        try container.encode(requestContext, forKey: .requestContext)
        try container.encodeIfPresent(body, forKey: .body)
        try container.encode(isBase64Encoded, forKey: .isBase64Encoded)
    }
}
