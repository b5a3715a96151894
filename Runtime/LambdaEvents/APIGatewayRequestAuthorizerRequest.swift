/// A REST API Lambda authorizer REQUEST event (payload 1.0): the request's parts plus `methodArn`.
public struct APIGatewayRequestAuthorizerRequest: Codable, Sendable, Equatable {
    /// Always `REQUEST`.
    public var type: String
    public var methodArn: String
    public var resource: String
    public var path: String
    public var httpMethod: String
    public var headers: [String: String]
    public var multiValueHeaders: [String: [String]]
    public var queryStringParameters: [String: String]
    public var multiValueQueryStringParameters: [String: [String]]
    public var pathParameters: [String: String]
    public var stageVariables: [String: String]
    public var requestContext: APIGatewayRequest.Context

    public init(
        type: String = "REQUEST", methodArn: String, resource: String, path: String, httpMethod: String,
        headers: [String: String] = [:], multiValueHeaders: [String: [String]] = [:],
        queryStringParameters: [String: String] = [:], multiValueQueryStringParameters: [String: [String]] = [:],
        pathParameters: [String: String] = [:], stageVariables: [String: String] = [:],
        requestContext: APIGatewayRequest.Context
    ) {
        self.type = type
        self.methodArn = methodArn
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
    }

    enum CodingKeys: String, CodingKey {
        case type, methodArn, resource, path, httpMethod, headers, multiValueHeaders, queryStringParameters
        case multiValueQueryStringParameters, pathParameters, stageVariables, requestContext
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        type = try container.decode(String.self, forKey: .type)
        methodArn = try container.decode(String.self, forKey: .methodArn)
        resource = try container.decode(String.self, forKey: .resource)
        path = try container.decode(String.self, forKey: .path)
        httpMethod = try container.decode(String.self, forKey: .httpMethod)
        headers = try container.decodeMap(.headers)
        multiValueHeaders = try container.decodeMap(.multiValueHeaders)
        queryStringParameters = try container.decodeMap(.queryStringParameters)
        multiValueQueryStringParameters = try container.decodeMap(.multiValueQueryStringParameters)
        pathParameters = try container.decodeMap(.pathParameters)
        stageVariables = try container.decodeMap(.stageVariables)
        requestContext = try container.decode(APIGatewayRequest.Context.self, forKey: .requestContext)
    }
}
