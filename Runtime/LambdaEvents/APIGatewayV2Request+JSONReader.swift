import GatehouseJSON
import LambdaRuntime

// Each reader keeps what it has read in locals and builds the value once at the end: no
// closures, no captured boxes, no copies of the request on the way out.

extension APIGatewayV2Request: JSONReadable {
    init(reading reader: inout JSONReader) throws {
        var version: String?
        var routeKey: String?
        var rawPath: String?
        var rawQueryString: String?
        var cookies: [String] = []
        var headers: [String: String] = [:]
        var queryStringParameters: [String: String] = [:]
        var pathParameters: [String: String] = [:]
        var stageVariables: [String: String] = [:]
        var requestContext: Context?
        var body: String?
        var isBase64Encoded: Bool?
        var seen = MemberSet()
        try reader.beginObject()
        while let name = try reader.nextMember() {
            if name.is("version") {
                try seen.take(0)
                version = try reader.readString()
            } else if name.is("routeKey") {
                try seen.take(1)
                routeKey = try reader.readString()
            } else if name.is("rawPath") {
                try seen.take(2)
                rawPath = try reader.readString()
            } else if name.is("rawQueryString") {
                try seen.take(3)
                rawQueryString = try reader.readOptionalString()
            } else if name.is("cookies") {
                try seen.take(4)
                cookies = try reader.readStringList()
            } else if name.is("headers") {
                try seen.take(5)
                headers = try reader.readStringMap()
            } else if name.is("queryStringParameters") {
                try seen.take(6)
                queryStringParameters = try reader.readStringMap()
            } else if name.is("pathParameters") {
                try seen.take(7)
                pathParameters = try reader.readStringMap()
            } else if name.is("stageVariables") {
                try seen.take(8)
                stageVariables = try reader.readStringMap()
            } else if name.is("requestContext") {
                try seen.take(9)
                requestContext = try Context(reading: &reader)
            } else if name.is("body") {
                try seen.take(10)
                body = try reader.readOptionalString()
            } else if name.is("isBase64Encoded") {
                try seen.take(11)
                isBase64Encoded = try reader.readOptionalBool()
            } else {
                try reader.skipValue()
            }
        }
        guard let version, let routeKey, let rawPath, let requestContext else { throw JSONShapeMismatch() }
        self.init(
            version: version, routeKey: routeKey, rawPath: rawPath, rawQueryString: rawQueryString ?? "",
            cookies: cookies, headers: headers, queryStringParameters: queryStringParameters,
            pathParameters: pathParameters, stageVariables: stageVariables, requestContext: requestContext,
            body: body, isBase64Encoded: isBase64Encoded ?? false)
    }
}

extension APIGatewayV2Request.Context {
    init(reading reader: inout JSONReader) throws {
        var accountId: String?
        var apiId: String?
        var domainName: String?
        var domainPrefix: String?
        var requestId: String?
        var routeKey: String?
        var stage: String?
        var time: String?
        var http: HTTP?
        var timeEpoch: Int64?
        var authorizer: Authorizer?
        var authentication: JSONValue?
        var seen = MemberSet()
        try reader.beginObject()
        while let name = try reader.nextMember() {
            if name.is("accountId") {
                try seen.take(0)
                accountId = try reader.readString()
            } else if name.is("apiId") {
                try seen.take(1)
                apiId = try reader.readString()
            } else if name.is("domainName") {
                try seen.take(2)
                domainName = try reader.readString()
            } else if name.is("domainPrefix") {
                try seen.take(3)
                domainPrefix = try reader.readString()
            } else if name.is("requestId") {
                try seen.take(4)
                requestId = try reader.readString()
            } else if name.is("routeKey") {
                try seen.take(5)
                routeKey = try reader.readString()
            } else if name.is("stage") {
                try seen.take(6)
                stage = try reader.readString()
            } else if name.is("time") {
                try seen.take(7)
                time = try reader.readString()
            } else if name.is("http") {
                try seen.take(8)
                http = try HTTP(reading: &reader)
            } else if name.is("timeEpoch") {
                try seen.take(9)
                timeEpoch = try reader.readInt64()
            } else if name.is("authorizer") {
                try seen.take(10)
                authorizer = try reader.readNull() ? nil : try Authorizer(reading: &reader)
            } else if name.is("authentication") {
                try seen.take(11)
                authentication = try reader.readOptionalValue()
            } else {
                try reader.skipValue()
            }
        }
        guard let accountId, let apiId, let domainName, let domainPrefix, let requestId, let routeKey, let stage,
            let time, let http, let timeEpoch
        else { throw JSONShapeMismatch() }
        self.init(
            accountId: accountId, apiId: apiId, domainName: domainName, domainPrefix: domainPrefix, http: http,
            requestId: requestId, routeKey: routeKey, stage: stage, time: time, timeEpoch: timeEpoch,
            authorizer: authorizer, authentication: authentication)
    }
}

extension APIGatewayV2Request.Context.HTTP {
    fileprivate init(reading reader: inout JSONReader) throws {
        var method: String?
        var path: String?
        var httpProtocol: String?
        var sourceIp: String?
        var userAgent: String?
        var seen = MemberSet()
        try reader.beginObject()
        while let name = try reader.nextMember() {
            if name.is("method") {
                try seen.take(0)
                method = try reader.readString()
            } else if name.is("path") {
                try seen.take(1)
                path = try reader.readString()
            } else if name.is("protocol") {
                try seen.take(2)
                httpProtocol = try reader.readString()
            } else if name.is("sourceIp") {
                try seen.take(3)
                sourceIp = try reader.readString()
            } else if name.is("userAgent") {
                try seen.take(4)
                userAgent = try reader.readString()
            } else {
                try reader.skipValue()
            }
        }
        guard let method, let path, let httpProtocol, let sourceIp, let userAgent else { throw JSONShapeMismatch() }
        self.init(method: method, path: path, protocol: httpProtocol, sourceIp: sourceIp, userAgent: userAgent)
    }
}

extension APIGatewayV2Request.Context.Authorizer {
    fileprivate init(reading reader: inout JSONReader) throws {
        var lambda: [String: JSONValue]?
        var jwt: JWT?
        var iam: JSONValue?
        var seen = MemberSet()
        try reader.beginObject()
        while let name = try reader.nextMember() {
            if name.is("lambda") {
                try seen.take(0)
                lambda = try reader.readOptionalMembers()
            } else if name.is("jwt") {
                try seen.take(1)
                jwt = try reader.readNull() ? nil : try JWT(reading: &reader)
            } else if name.is("iam") {
                try seen.take(2)
                iam = try reader.readOptionalValue()
            } else {
                try reader.skipValue()
            }
        }
        self.init(lambda: lambda, jwt: jwt, iam: iam)
    }
}

extension APIGatewayV2Request.Context.Authorizer.JWT {
    fileprivate init(reading reader: inout JSONReader) throws {
        var claims: [String: String] = [:]
        var scopes: [String] = []
        var seen = MemberSet()
        try reader.beginObject()
        while let name = try reader.nextMember() {
            if name.is("claims") {
                try seen.take(0)
                claims = try reader.readStringMap()
            } else if name.is("scopes") {
                try seen.take(1)
                scopes = try reader.readStringList()
            } else {
                try reader.skipValue()
            }
        }
        self.init(claims: claims, scopes: scopes)
    }
}
