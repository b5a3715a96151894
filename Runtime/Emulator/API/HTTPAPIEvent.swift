import Foundation
import GatehouseJSON
import LambdaRuntime

/// Builds the payload format 2.0 event an HTTP API sends a function, and reads the function's
/// answer back the way API Gateway does.
public enum HTTPAPIEvent {
    /// The event for `request` on `match`, at `now` (seconds since 1970).
    public static func make(
        _ request: APIRequest, match: RouteTable.Match, requestID: String, now: Double,
        authorizer: [String: JSONValue]? = nil, jwt: JSONValue? = nil
    ) -> JSONValue {
        // One way of building the event: its text, read back. Only authorizer events and tests
        // want the value; functions get the text.
        let text = payload(request, match: match, requestID: requestID, now: now, authorizer: authorizer, jwt: jwt)
        return (try? JSONValue(parsing: text)) ?? .null
    }

    /// The event's JSON text, written member by member: start-api builds one per request.
    /// `authorizer` is a Lambda authorizer's context (`requestContext.authorizer.lambda`), `jwt`
    /// a JWT authorizer's `{claims, scopes}` (`requestContext.authorizer.jwt`).
    public static func payload(
        _ request: APIRequest, match: RouteTable.Match, requestID: String, now: Double,
        authorizer: [String: JSONValue]? = nil, jwt: JSONValue? = nil
    ) -> [UInt8] {
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
        let routeKey = match.route.routeKey
        var event = JSONWriter(capacity: 1024 + request.body.count * 4 / 3)
        event.beginObject()
        event.member("version", "2.0")
        event.member("routeKey", routeKey)
        event.member("rawPath", request.rawPath)
        event.member("rawQueryString", request.rawQuery)
        event.name("headers")
        event.object(headers)
        if !cookies.isEmpty {
            event.name("cookies")
            event.beginArray()
            for cookie in cookies { event.string(cookie) }
            event.endArray()
        }
        if !query.isEmpty {
            event.name("queryStringParameters")
            event.object(query)
        }
        if !match.pathParameters.isEmpty {
            event.name("pathParameters")
            event.object(match.pathParameters.mapValues { $0.removingPercentEncoding ?? $0 })
        }
        event.name("requestContext")
        event.beginObject()
        event.member("accountId", "123456789012")
        event.member("apiId", "local")
        event.member("domainName", host)
        event.member("domainPrefix", String(host.split(separator: ".").first ?? ""))
        event.name("http")
        event.beginObject()
        event.member("method", request.method.uppercased())
        event.member("path", request.rawPath)
        event.member("protocol", request.httpProtocol)
        event.member("sourceIp", request.sourceIP)
        event.member("userAgent", headers["user-agent"] ?? "")
        event.endObject()
        event.member("requestId", requestID)
        event.member("routeKey", routeKey)
        event.member("stage", "$default")
        event.member("time", EventParts.clf(now))
        event.name("timeEpoch")
        event.value(.number((now * 1000).rounded(.down)))
        if let authorizer {
            event.name("authorizer")
            event.beginObject()
            event.name("lambda")
            event.value(.object(authorizer))
            event.endObject()
        } else if let jwt {
            event.name("authorizer")
            event.beginObject()
            event.name("jwt")
            event.value(jwt)
            event.endObject()
        }
        event.endObject()
        let body = EventParts.body(request.body, binary: !EventParts.isText(contentType: headers["content-type"]))
        if let body { event.member("body", body.text) }
        event.name("isBase64Encoded")
        event.bool(body?.base64 ?? false)
        event.endObject()
        return event.bytes
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
