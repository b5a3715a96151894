/// A Lambda authorizer REQUEST event from an HTTP API, payload format 2.0.
public struct APIGatewayV2AuthorizerRequest: Codable, Sendable, Equatable {
    public var version: String
    /// Always `REQUEST` for payload 2.0.
    public var type: String
    public var routeArn: String
    /// The values of the configured identity sources, in order.
    public var identitySource: [String]
    public var routeKey: String
    public var rawPath: String
    public var rawQueryString: String
    public var cookies: [String]
    public var headers: [String: String]
    public var queryStringParameters: [String: String]
    public var pathParameters: [String: String]
    public var stageVariables: [String: String]
    public var requestContext: APIGatewayV2Request.Context

    public init(
        version: String = "2.0", type: String = "REQUEST", routeArn: String, identitySource: [String],
        routeKey: String, rawPath: String, rawQueryString: String = "", cookies: [String] = [],
        headers: [String: String] = [:], queryStringParameters: [String: String] = [:],
        pathParameters: [String: String] = [:], stageVariables: [String: String] = [:],
        requestContext: APIGatewayV2Request.Context
    ) {
        self.version = version
        self.type = type
        self.routeArn = routeArn
        self.identitySource = identitySource
        self.routeKey = routeKey
        self.rawPath = rawPath
        self.rawQueryString = rawQueryString
        self.cookies = cookies
        self.headers = headers
        self.queryStringParameters = queryStringParameters
        self.pathParameters = pathParameters
        self.stageVariables = stageVariables
        self.requestContext = requestContext
    }

    enum CodingKeys: String, CodingKey {
        case version, type, routeArn, identitySource, routeKey, rawPath, rawQueryString, cookies, headers
        case queryStringParameters, pathParameters, stageVariables, requestContext
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        version = try container.decode(String.self, forKey: .version)
        type = try container.decode(String.self, forKey: .type)
        routeArn = try container.decode(String.self, forKey: .routeArn)
        identitySource = try container.decodeList(.identitySource)
        routeKey = try container.decode(String.self, forKey: .routeKey)
        rawPath = try container.decode(String.self, forKey: .rawPath)
        rawQueryString = try container.decodeIfPresent(String.self, forKey: .rawQueryString) ?? ""
        cookies = try container.decodeList(.cookies)
        headers = try container.decodeMap(.headers)
        queryStringParameters = try container.decodeMap(.queryStringParameters)
        pathParameters = try container.decodeMap(.pathParameters)
        stageVariables = try container.decodeMap(.stageVariables)
        requestContext = try container.decode(APIGatewayV2Request.Context.self, forKey: .requestContext)
    }
}
