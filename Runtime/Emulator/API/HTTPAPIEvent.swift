import Foundation
import LambdaRuntime

/// Builds the payload format 2.0 event an HTTP API sends a function, and reads the function's
/// answer back the way API Gateway does.
public enum HTTPAPIEvent {
    /// The event for `request` on `match`, at `now` (seconds since 1970).
    public static func make(
        _ request: APIRequest, match: RouteTable.Match, requestID: String, now: Double,
        authorizer: [String: JSONValue]? = nil
    ) -> JSONValue {
        var headers: [String: String] = [:]
        var cookies: [String] = []
        for (name, value) in request.headers {
            let lower = name.lowercased()
            if lower == "cookie" {
                // 2.0 moves cookies to their own list and leaves them out of the headers.
                cookies += value.split(separator: ";").map { String($0.drop(while: { $0 == " " })) }.filter {
                    !$0.isEmpty
                }
                continue
            }
            headers[lower] = headers[lower].map { "\($0),\(value)" } ?? value
        }
        var query: [String: String] = [:]
        for (name, value) in EventParts.queryPairs(request.rawQuery) {
            query[name] = query[name].map { "\($0),\(value)" } ?? value
        }
        let host = headers["host"] ?? "127.0.0.1"
        var context: [String: JSONValue] = [
            "accountId": "123456789012", "apiId": "local", "domainName": .string(host),
            "domainPrefix": .string(String(host.split(separator: ".").first ?? "")),
            "http": [
                "method": .string(request.method.uppercased()), "path": .string(request.rawPath),
                "protocol": .string(request.httpProtocol), "sourceIp": .string(request.sourceIP),
                "userAgent": .string(headers["user-agent"] ?? ""),
            ],
            "requestId": .string(requestID), "routeKey": .string(match.route.routeKey), "stage": "$default",
            "time": .string(EventParts.clf(now)), "timeEpoch": .number((now * 1000).rounded(.down)),
        ]
        if let authorizer { context["authorizer"] = ["lambda": .object(authorizer)] }
        var event: [String: JSONValue] = [
            "version": "2.0", "routeKey": .string(match.route.routeKey), "rawPath": .string(request.rawPath),
            "rawQueryString": .string(request.rawQuery), "headers": .object(headers.mapValues { .string($0) }),
            "requestContext": .object(context), "isBase64Encoded": false,
        ]
        if !cookies.isEmpty { event["cookies"] = .array(cookies.map { .string($0) }) }
        if !query.isEmpty { event["queryStringParameters"] = .object(query.mapValues { .string($0) }) }
        if !match.pathParameters.isEmpty {
            event["pathParameters"] = .object(
                match.pathParameters.mapValues { .string($0.removingPercentEncoding ?? $0) })
        }
        if let body = EventParts.body(request.body, binary: !EventParts.isText(contentType: headers["content-type"])) {
            event["body"] = .string(body.text)
            event["isBase64Encoded"] = .bool(body.base64)
        }
        return .object(event)
    }

    /// The 2.0 REQUEST event a Lambda authorizer gets for `request` on `match`: the route's
    /// event without its body, with `type`, `routeArn` and `identitySource`.
    public static func authorizerEvent(
        _ request: APIRequest, match: RouteTable.Match, requestID: String, now: Double, identity: [String]
    ) -> JSONValue {
        EventParts.requestAuthorizerEvent(
            from: make(request, match: match, requestID: requestID, now: now),
            adding: [
                "routeArn": .string(routeARN(match.route)), "identitySource": .array(identity.map { .string($0) }),
            ])
    }

    /// The route's ARN, which an IAM policy answer is judged against:
    /// `arn:aws:execute-api:…:local/$default/GET/users/me`, or `…/$default/$default`.
    public static func routeARN(_ route: HTTPRoute) -> String {
        route.path == "$default"
            ? "\(EventParts.arnPrefix)/\(route.stage)/$default"
            : EventParts.methodARN(stage: route.stage, method: route.method, path: route.path)
    }

    /// The HTTP response for a function's answer to a 2.0 event; nil when the answer is not one
    /// API Gateway accepts (it then answers 500).
    ///
    /// An answer with `statusCode` is read as a response (`headers`, `cookies` as `Set-Cookie`,
    /// `body`, `isBase64Encoded`); any other JSON is the body of a 200 `application/json` answer.
    public static func response(from payload: [UInt8]) -> APIResponse? {
        guard let answer = try? JSONValue(parsing: payload) else { return nil }
        guard case .object(let members) = answer, let statusValue = members["statusCode"] else {
            return APIResponse(
                status: 200, headers: [.init("content-type", "application/json")], body: payload)
        }
        guard case .number(let number) = statusValue, number.rounded() == number, (100...599).contains(number)
        else { return nil }
        var response = APIResponse(status: Int(number))
        switch members["headers"] {
        case nil, .null?: break
        case .object(let headers)?:
            for (name, value) in headers.sorted(by: { $0.key < $1.key }) {
                guard let text = EventParts.headerText(value) else { return nil }
                response.headers.append(.init(name.lowercased(), text))
            }
        default: return nil
        }
        switch members["cookies"] {
        case nil, .null?: break
        case .array(let cookies)?:
            for cookie in cookies {
                guard case .string(let text) = cookie else { return nil }
                response.headers.append(.init("set-cookie", text))
            }
        default: return nil
        }
        guard let body = EventParts.responseBody(members), response.headersAreWritable else { return nil }
        response.body = body
        if !response.headers.contains(where: { $0.name == "content-type" }) {
            response.headers.append(.init("content-type", "application/json"))
        }
        return response
    }
}
