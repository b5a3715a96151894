import GatehouseJSON

extension APIGatewayV2Request: JSONValueDecodable {
    init(json: JSONValue) throws(JSONShapeMismatch) {
        let event = try JSONObjectReader(json)
        self.init(
            version: try event.string("version"), routeKey: try event.string("routeKey"),
            rawPath: try event.string("rawPath"), rawQueryString: try event.optionalString("rawQueryString") ?? "",
            cookies: try event.stringList("cookies"), headers: try event.stringMap("headers"),
            queryStringParameters: try event.stringMap("queryStringParameters"),
            pathParameters: try event.stringMap("pathParameters"),
            stageVariables: try event.stringMap("stageVariables"),
            requestContext: try Context(try event.object("requestContext")), body: try event.optionalString("body"),
            isBase64Encoded: try event.optionalBool("isBase64Encoded") ?? false)
    }
}

extension APIGatewayV2Request.Context {
    fileprivate init(_ context: JSONObjectReader) throws(JSONShapeMismatch) {
        let http = try context.object("http")
        self.init(
            accountId: try context.string("accountId"), apiId: try context.string("apiId"),
            domainName: try context.string("domainName"), domainPrefix: try context.string("domainPrefix"),
            http: HTTP(
                method: try http.string("method"), path: try http.string("path"),
                protocol: try http.string("protocol"), sourceIp: try http.string("sourceIp"),
                userAgent: try http.string("userAgent")),
            requestId: try context.string("requestId"), routeKey: try context.string("routeKey"),
            stage: try context.string("stage"), time: try context.string("time"),
            timeEpoch: try context.int64("timeEpoch"),
            authorizer: try context.optionalObject("authorizer").map { reader throws(JSONShapeMismatch) in
                try Authorizer(reader)
            },
            authentication: context.optionalValue("authentication"))
    }
}

extension APIGatewayV2Request.Context.Authorizer {
    fileprivate init(_ authorizer: JSONObjectReader) throws(JSONShapeMismatch) {
        self.init(
            lambda: try authorizer.optionalMembers("lambda"),
            jwt: try authorizer.optionalObject("jwt").map { jwt throws(JSONShapeMismatch) in
                JWT(claims: try jwt.stringMap("claims"), scopes: try jwt.stringList("scopes"))
            },
            iam: authorizer.optionalValue("iam"))
    }
}
