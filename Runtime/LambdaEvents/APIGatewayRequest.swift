import GatehouseJSON
import LambdaRuntime

/// A REST API proxy request (payload format 1.0), also what an HTTP API route set to payload 1.0 sends.
public struct APIGatewayRequest: Codable, Sendable, Equatable {
    /// `requestContext` of a payload 1.0 event.
    public struct Context: Codable, Sendable, Equatable {
        /// `requestContext.identity`: who called. Members API Gateway leaves `null` are nil.
        public struct Identity: Codable, Sendable, Equatable {
            public var sourceIp: String
            public var userAgent: String?
            public var accessKey: String?
            public var accountId: String?
            public var apiKey: String?
            public var apiKeyId: String?
            public var caller: String?
            public var cognitoAuthenticationProvider: String?
            public var cognitoAuthenticationType: String?
            public var cognitoIdentityId: String?
            public var cognitoIdentityPoolId: String?
            public var principalOrgId: String?
            public var user: String?
            public var userArn: String?

            public init(sourceIp: String, userAgent: String? = nil) {
                self.sourceIp = sourceIp
                self.userAgent = userAgent
            }
        }

        public var accountId: String
        public var apiId: String
        public var resourceId: String?
        public var resourcePath: String
        public var httpMethod: String
        public var path: String
        public var `protocol`: String?
        public var stage: String
        public var requestId: String
        public var extendedRequestId: String?
        /// `09/Apr/2015:12:34:56 +0000`.
        public var requestTime: String?
        public var requestTimeEpoch: Int64?
        public var domainName: String?
        public var domainPrefix: String?
        public var identity: Identity
        /// What a Lambda authorizer left: `principalId` plus its `context` members. Empty when none ran.
        public var authorizer: [String: JSONValue]

        public init(
            accountId: String, apiId: String, resourceId: String? = nil, resourcePath: String, httpMethod: String,
            path: String, protocol: String? = "HTTP/1.1", stage: String, requestId: String,
            extendedRequestId: String? = nil, requestTime: String? = nil, requestTimeEpoch: Int64? = nil,
            domainName: String? = nil, domainPrefix: String? = nil, identity: Identity,
            authorizer: [String: JSONValue] = [:]
        ) {
            self.accountId = accountId
            self.apiId = apiId
            self.resourceId = resourceId
            self.resourcePath = resourcePath
            self.httpMethod = httpMethod
            self.path = path
            self.protocol = `protocol`
            self.stage = stage
            self.requestId = requestId
            self.extendedRequestId = extendedRequestId
            self.requestTime = requestTime
            self.requestTimeEpoch = requestTimeEpoch
            self.domainName = domainName
            self.domainPrefix = domainPrefix
            self.identity = identity
            self.authorizer = authorizer
        }

        enum CodingKeys: String, CodingKey {
            case accountId, apiId, resourceId, resourcePath, httpMethod, path, `protocol`, stage, requestId
            case extendedRequestId, requestTime, requestTimeEpoch, domainName, domainPrefix, identity, authorizer
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            accountId = try container.decode(String.self, forKey: .accountId)
            apiId = try container.decode(String.self, forKey: .apiId)
            resourceId = try container.decodeIfPresent(String.self, forKey: .resourceId)
            resourcePath = try container.decode(String.self, forKey: .resourcePath)
            httpMethod = try container.decode(String.self, forKey: .httpMethod)
            path = try container.decode(String.self, forKey: .path)
            self.protocol = try container.decodeIfPresent(String.self, forKey: .protocol)
            stage = try container.decode(String.self, forKey: .stage)
            requestId = try container.decode(String.self, forKey: .requestId)
            extendedRequestId = try container.decodeIfPresent(String.self, forKey: .extendedRequestId)
            requestTime = try container.decodeIfPresent(String.self, forKey: .requestTime)
            requestTimeEpoch = try container.decodeIfPresent(Int64.self, forKey: .requestTimeEpoch)
            domainName = try container.decodeIfPresent(String.self, forKey: .domainName)
            domainPrefix = try container.decodeIfPresent(String.self, forKey: .domainPrefix)
            identity = try container.decode(Identity.self, forKey: .identity)
            authorizer = try container.decodeMap(.authorizer)
        }
    }

    /// `"1.0"` from an HTTP API; REST APIs leave it out.
    public var version: String?
    public var resource: String
    public var path: String
    public var httpMethod: String
    public var headers: [String: String]
    public var multiValueHeaders: [String: [String]]
    public var queryStringParameters: [String: String]
    public var multiValueQueryStringParameters: [String: [String]]
    public var pathParameters: [String: String]
    public var stageVariables: [String: String]
    public var requestContext: Context
    public var body: String?
    public var isBase64Encoded: Bool

    public init(
        version: String? = nil, resource: String, path: String, httpMethod: String,
        headers: [String: String] = [:], multiValueHeaders: [String: [String]] = [:],
        queryStringParameters: [String: String] = [:], multiValueQueryStringParameters: [String: [String]] = [:],
        pathParameters: [String: String] = [:], stageVariables: [String: String] = [:],
        requestContext: Context, body: String? = nil, isBase64Encoded: Bool = false
    ) {
        self.version = version
        self.resource = resource
        self.path = path
        self.httpMethod = httpMethod
        self.headers = headers
        self.multiValueHeaders = multiValueHeaders
        self.queryStringParameters = queryStringParameters
        self.multiValueQueryStringParameters = multiValueQueryStringParameters
        self.pathParameters = pathParameters
        self.stageVariables = stageVariables
        self.requestContext = requestContext
        self.body = body
        self.isBase64Encoded = isBase64Encoded
    }

    enum CodingKeys: String, CodingKey {
        case version, resource, path, httpMethod, headers, multiValueHeaders, queryStringParameters
        case multiValueQueryStringParameters, pathParameters, stageVariables, requestContext, body, isBase64Encoded
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        version = try container.decodeIfPresent(String.self, forKey: .version)
        resource = try container.decode(String.self, forKey: .resource)
        path = try container.decode(String.self, forKey: .path)
        httpMethod = try container.decode(String.self, forKey: .httpMethod)
        headers = try container.decodeMap(.headers)
        multiValueHeaders = try container.decodeMap(.multiValueHeaders)
        queryStringParameters = try container.decodeMap(.queryStringParameters)
        multiValueQueryStringParameters = try container.decodeMap(.multiValueQueryStringParameters)
        pathParameters = try container.decodeMap(.pathParameters)
        stageVariables = try container.decodeMap(.stageVariables)
        requestContext = try container.decode(Context.self, forKey: .requestContext)
        body = try container.decodeIfPresent(String.self, forKey: .body)
        isBase64Encoded = try container.decodeIfPresent(Bool.self, forKey: .isBase64Encoded) ?? false
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(version, forKey: .version)
        try container.encode(resource, forKey: .resource)
        try container.encode(path, forKey: .path)
        try container.encode(httpMethod, forKey: .httpMethod)
        try container.encodeMapOrNull(headers, forKey: .headers)
        try container.encodeMapOrNull(multiValueHeaders, forKey: .multiValueHeaders)
        try container.encodeMapOrNull(queryStringParameters, forKey: .queryStringParameters)
        try container.encodeMapOrNull(multiValueQueryStringParameters, forKey: .multiValueQueryStringParameters)
        try container.encodeMapOrNull(pathParameters, forKey: .pathParameters)
        try container.encodeMapOrNull(stageVariables, forKey: .stageVariables)
        try container.encode(requestContext, forKey: .requestContext)
        if let body { try container.encode(body, forKey: .body) } else { try container.encodeNil(forKey: .body) }
        try container.encode(isBase64Encoded, forKey: .isBase64Encoded)
    }
}
