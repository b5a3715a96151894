import GatehouseJSON
import LambdaRuntime

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// An HTTP request as a function sees it, whichever payload format API Gateway sent it in:
/// only the parts a handler reads, so members it does not use are never decoded.
public struct HTTPRequest: Sendable, Equatable {
    /// The format the event came in, and the one the answer goes back in.
    public var format: PayloadFormat
    /// `GET`, `POST`, ...
    public var method: String
    /// The request's path, as the client sent it.
    public var path: String
    /// Header names lower-cased (version 1.0 keeps the client's case, and so do some test
    /// events of version 2.0; this does not).
    public var headers: [String: String]
    /// The query string's parameters; repeated ones as API Gateway joins or keeps them.
    public var queryParameters: [String: String]
    /// The route's path parameters.
    public var pathParameters: [String: String]
    /// The body as API Gateway passed it (base64 when `isBase64Encoded`).
    public var body: String?
    public var isBase64Encoded: Bool
    /// API Gateway's request id (`requestContext.requestId`).
    public var requestID: String
    /// What a Lambda authorizer left: payload 2.0's `requestContext.authorizer.lambda`, or
    /// payload 1.0's `requestContext.authorizer` (its `principalId` and context members).
    public var authorizer: [String: JSONValue]
    /// The client's address as API Gateway saw it: payload 2.0's `requestContext.http.sourceIp`,
    /// payload 1.0's `requestContext.identity.sourceIp`.
    public var sourceIP: String?
    /// Payload 2.0's `cookies` list (`name=value` each); payload 1.0 keeps them in the `cookie`
    /// header (see `cookie(_:)`).
    public var cookieList: [String]
    /// The route's path as the template declares it, path parameters unfilled
    /// (`/auth/v1/user/identities/{id}`): payload 2.0's `routeKey` after its method, 1.0's
    /// `resource`; nil when the event names none (a `$default` route, a bare test event).
    public var route: String?

    public init(
        format: PayloadFormat, method: String, path: String, headers: [String: String] = [:],
        queryParameters: [String: String] = [:], pathParameters: [String: String] = [:], body: String? = nil,
        isBase64Encoded: Bool = false, requestID: String = "", authorizer: [String: JSONValue] = [:],
        sourceIP: String? = nil, cookieList: [String] = [], route: String? = nil
    ) {
        self.format = format
        self.method = method
        self.path = path
        self.headers = headers
        self.queryParameters = queryParameters
        self.pathParameters = pathParameters
        self.body = body
        self.isBase64Encoded = isBase64Encoded
        self.requestID = requestID
        self.authorizer = authorizer
        self.sourceIP = sourceIP
        self.cookieList = cookieList
        self.route = route
    }

    /// The value of cookie `name`, from payload 2.0's list or the `cookie` header; the first
    /// when repeated.
    public func cookie(_ name: String) -> String? {
        let pairs = cookieList + (header("cookie")?.split(separator: ";").map(String.init) ?? [])
        for pair in pairs {
            let trimmed = pair.drop(while: { $0 == " " })
            guard let equals = trimmed.firstIndex(of: "="), trimmed[..<equals] == name else { continue }
            return String(trimmed[trimmed.index(after: equals)...])
        }
        return nil
    }

    /// A header's value; `name` in lower case.
    public func header(_ name: String) -> String? {
        headers[name]
    }

    /// A string the Lambda authorizer put in its context, e.g. the signed-in user's id (`sub`);
    /// nil without one (the route is not behind the authorizer).
    public func authorizerContext(_ name: String) -> String? {
        authorizer[name]?.stringValue
    }

    /// The exact bytes the client sent: the body with API Gateway's base64 undone when it
    /// applied it; empty without a body. What a signature over the body must cover.
    public func bodyBytes() throws(RequestBodyError) -> [UInt8] {
        guard let body else { return [] }
        guard isBase64Encoded else { return Array(body.utf8) }
        guard let data = Data(base64Encoded: body) else { throw .notJSON }
        return Array(data)
    }
}
