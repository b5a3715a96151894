import Foundation
import GatehouseJSON
import LambdaRuntime

/// Builds the payload format 1.0 event that a REST API (or an HTTP API route set to 1.0) sends a
/// function, and reads the function's answer back the way API Gateway does.
public enum PayloadV1Event {
    /// The event for `request` on `match`, at `now` (seconds since 1970). `authorizer` is what
    /// lands in `requestContext.authorizer`.
    public static func make(
        _ request: APIRequest, match: RouteTable.Match, requestID: String, now: Double,
        authorizer: [String: JSONValue]? = nil
    ) -> JSONValue {
        let route = match.route
        let rest = route.kind == .rest
        // REST keeps header names as sent; an HTTP API lower-cases them. `headers` holds the
        // last value of a repeated header, `multiValueHeaders` every value.
        var multiHeaders: [(name: String, values: [String])] = []
        for (sent, value) in request.headers {
            let name = rest ? sent : sent.lowercased()
            if let index = multiHeaders.firstIndex(where: { $0.name.lowercased() == name.lowercased() }) {
                multiHeaders[index].values.append(value)
            } else {
                multiHeaders.append((name, [value]))
            }
        }
        var multiQuery: [String: [String]] = [:]
        for (name, value) in EventParts.queryPairs(request.rawQuery) { multiQuery[name, default: []].append(value) }
        let header = { (name: String) in multiHeaders.first { $0.name.lowercased() == name }?.values.last }
        let host = header("host") ?? "127.0.0.1"
        var context: [String: JSONValue] = [
            "accountId": "123456789012", "apiId": "local", "domainName": .string(host),
            "domainPrefix": .string(String(host.split(separator: ".").first ?? "")),
            "extendedRequestId": .string(requestID), "httpMethod": .string(request.method.uppercased()),
            "identity": [
                "accessKey": nil, "accountId": nil, "caller": nil, "cognitoAuthenticationProvider": nil,
                "cognitoAuthenticationType": nil, "cognitoIdentityId": nil, "cognitoIdentityPoolId": nil,
                "principalOrgId": nil, "sourceIp": .string(request.sourceIP), "user": nil,
                "userAgent": .string(header("user-agent") ?? ""), "userArn": nil,
            ],
            "path": .string(rest ? "/\(route.stage)\(request.rawPath)" : request.rawPath),
            "protocol": .string(request.httpProtocol), "requestId": .string(requestID),
            "requestTime": .string(EventParts.clf(now)), "requestTimeEpoch": .number((now * 1000).rounded(.down)),
            "resourceId": .string(route.routeKey), "resourcePath": .string(route.path), "stage": .string(route.stage),
        ]
        if let authorizer { context["authorizer"] = .object(authorizer) }
        let headers = multiHeaders.map { ($0.name, JSONValue.string($0.values.last ?? "")) }
        let multiValueHeaders = multiHeaders.map { ($0.name, JSONValue.array($0.values.map { .string($0) })) }
        var event: [String: JSONValue] = [
            "resource": .string(route.path), "path": .string(request.rawPath),
            "httpMethod": .string(request.method.uppercased()),
            "headers": .object(Dictionary(headers, uniquingKeysWith: { _, last in last })),
            "multiValueHeaders": .object(Dictionary(multiValueHeaders, uniquingKeysWith: { _, last in last })),
            "queryStringParameters": multiQuery.isEmpty ? .null : .object(multiQuery.mapValues { .string($0.last!) }),
            "multiValueQueryStringParameters": multiQuery.isEmpty
                ? .null : .object(multiQuery.mapValues { .array($0.map { .string($0) }) }),
            "pathParameters": match.pathParameters.isEmpty
                ? .null : .object(match.pathParameters.mapValues { .string($0.removingPercentEncoding ?? $0) }),
            "stageVariables": .null, "requestContext": .object(context), "body": .null, "isBase64Encoded": false,
        ]
        if !rest { event["version"] = "1.0" }
        let contentType = header("content-type")
        let binary =
            rest
            ? EventParts.isBinary(contentType: contentType, binaryMediaTypes: route.binaryMediaTypes)
            : !EventParts.isText(contentType: contentType)
        if let body = EventParts.body(request.body, binary: binary) {
            event["body"] = .string(body.text)
            event["isBase64Encoded"] = .bool(body.base64)
        }
        return .object(event)
    }

    /// The method ARN of `request` on `route`, which a REST authorizer's policy is judged against.
    public static func methodARN(_ request: APIRequest, route: HTTPRoute) -> String {
        EventParts.methodARN(stage: route.stage, method: request.method, path: request.rawPath)
    }

    /// A TOKEN authorizer's event: `{type, authorizationToken, methodArn}`.
    public static func tokenEvent(token: String, methodARN: String) -> JSONValue {
        ["type": "TOKEN", "authorizationToken": .string(token), "methodArn": .string(methodARN)]
    }

    /// A 1.0 REQUEST authorizer's event: the route's event without its body, with `type` and
    /// `methodArn` (and `identitySource` for an HTTP API).
    public static func requestAuthorizerEvent(
        _ request: APIRequest, match: RouteTable.Match, requestID: String, now: Double, identity: [String]
    ) -> JSONValue {
        var extra: [String: JSONValue] = ["methodArn": .string(methodARN(request, route: match.route))]
        if match.route.kind == .httpAPI { extra["identitySource"] = .string(identity.joined(separator: ",")) }
        return EventParts.requestAuthorizerEvent(
            from: make(request, match: match, requestID: requestID, now: now), adding: extra)
    }

    /// The HTTP response for a function's answer to a 1.0 event; nil when it is not one API
    /// Gateway accepts ("Malformed Lambda proxy response"). It must be an object with an integer
    /// `statusCode`; `headers` and `multiValueHeaders` are merged (for a name in both, the
    /// multi-value list wins). A REST API also refuses any other member.
    public static func response(from payload: [UInt8], rest: Bool) -> APIResponse? {
        guard case .object(let members)? = try? JSONValue(parsing: payload),
            case .number(let number)? = members["statusCode"], number.rounded() == number,
            (100...599).contains(number)
        else { return nil }
        let known: Set<String> = ["statusCode", "headers", "multiValueHeaders", "body", "isBase64Encoded"]
        if rest, members.keys.contains(where: { !known.contains($0) }) { return nil }
        var response = APIResponse(status: Int(number))
        var multi: [String: JSONValue] = [:]
        switch members["multiValueHeaders"] {
        case nil, .null?: break
        case .object(let object)?: multi = object
        default: return nil
        }
        let multiNames = Set(multi.keys.map { $0.lowercased() })
        switch members["headers"] {
        case nil, .null?: break
        case .object(let headers)?:
            for (name, value) in headers.sorted(by: { $0.key < $1.key }) {
                guard let text = EventParts.headerText(value) else { return nil }
                if !multiNames.contains(name.lowercased()) { response.headers.append(.init(name, text)) }
            }
        default: return nil
        }
        for (name, list) in multi.sorted(by: { $0.key < $1.key }) {
            guard case .array(let values) = list else { return nil }
            for value in values {
                guard let text = EventParts.headerText(value) else { return nil }
                response.headers.append(.init(name, text))
            }
        }
        guard let body = EventParts.responseBody(members), response.headersAreWritable else { return nil }
        response.body = body
        if !response.headers.contains(where: { $0.name.lowercased() == "content-type" }) {
            response.headers.append(.init("content-type", "application/json"))
        }
        return response
    }
}
