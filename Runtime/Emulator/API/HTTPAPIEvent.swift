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
        for pair in request.rawQuery.split(separator: "&") where !pair.isEmpty {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = decodeQuery(parts[0])
            let value = parts.count > 1 ? decodeQuery(parts[1]) : ""
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
            "time": .string(clf(now)), "timeEpoch": .number((now * 1000).rounded(.down)),
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
        if !request.body.isEmpty {
            if isText(contentType: headers["content-type"]), let text = String(validating: request.body, as: UTF8.self)
            {
                event["body"] = .string(text)
            } else {
                event["body"] = .string(Data(request.body).base64EncodedString())
                event["isBase64Encoded"] = true
            }
        }
        return .object(event)
    }

    /// The 2.0 REQUEST event a Lambda authorizer gets for `request` on `match`: the route's
    /// event without its body, with `type`, `routeArn` and `identitySource`.
    public static func authorizerEvent(
        _ request: APIRequest, match: RouteTable.Match, requestID: String, now: Double, identity: [String]
    ) -> JSONValue {
        guard case .object(var event) = make(request, match: match, requestID: requestID, now: now) else {
            return .null
        }
        event["body"] = nil
        event["isBase64Encoded"] = nil
        event["type"] = "REQUEST"
        let target = match.route.path == "$default" ? "$default" : "\(match.route.method)\(match.route.path)"
        event["routeArn"] = .string("arn:aws:execute-api:us-east-1:123456789012:local/$default/\(target)")
        event["identitySource"] = .array(identity.map { .string($0) })
        return .object(event)
    }

    /// A simple authorizer answer, `{"isAuthorized": Bool, "context": {...}}`; nil when it is
    /// not one (API Gateway then answers 500).
    public static func authorizerDecision(from payload: [UInt8]) -> AuthorizerCache.Decision? {
        guard case .object(let answer)? = try? JSONValue(parsing: payload),
            case .bool(let allowed)? = answer["isAuthorized"]
        else { return nil }
        switch answer["context"] {
        case nil, .null?: return .init(isAuthorized: allowed, context: [:])
        case .object(let context)?: return .init(isAuthorized: allowed, context: context)
        default: return nil
        }
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
                guard let text = headerText(value) else { return nil }
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
        let base64: Bool
        switch members["isBase64Encoded"] {
        case nil, .null?: base64 = false
        case .bool(let flag)?: base64 = flag
        default: return nil
        }
        switch members["body"] {
        case nil, .null?: break
        case .string(let text)?:
            if base64 {
                guard let data = Data(base64Encoded: text) else { return nil }
                response.body = Array(data)
            } else {
                response.body = Array(text.utf8)
            }
        default: return nil
        }
        if !response.headers.contains(where: { $0.name == "content-type" }) {
            response.headers.append(.init("content-type", "application/json"))
        }
        return response
    }

    /// Header values may be strings, numbers or booleans; API Gateway sends their text.
    private static func headerText(_ value: JSONValue) -> String? {
        switch value {
        case .string(let text): text
        case .bool(let flag): flag ? "true" : "false"
        case .number: value.serialized
        default: nil
        }
    }

    /// Text bodies pass as they are; anything else (or not UTF-8) is base64-encoded.
    static func isText(contentType: String?) -> Bool {
        guard let type = contentType?.lowercased().split(separator: ";").first?.trimmingCharacters(in: .whitespaces)
        else { return true }
        return type.hasPrefix("text/") || type == "application/json" || type.hasSuffix("+json")
            || type == "application/xml" || type.hasSuffix("+xml") || type == "application/x-www-form-urlencoded"
            || type == "application/javascript" || type == "application/graphql"
    }

    /// A query string name or value: `+` is a space, then percent-encoding is undone.
    static func decodeQuery(_ text: Substring) -> String {
        let plus = text.replacingOccurrences(of: "+", with: " ")
        return plus.removingPercentEncoding ?? plus
    }

    /// `21/Nov/2026:16:10:00 +0000`, as `requestContext.time` has it.
    static func clf(_ seconds: Double) -> String {
        var time = time_t(seconds)
        var parts = tm()
        gmtime_r(&time, &parts)
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return
            "\(two(parts.tm_mday))/\(months[Int(parts.tm_mon)])/\(parts.tm_year + 1900):\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) +0000"
    }
}
