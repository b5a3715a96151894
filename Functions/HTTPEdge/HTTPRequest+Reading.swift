import GatehouseJSON
import LambdaRuntime

// Each format is read straight from its JSON text, taking only the members `HTTPRequest` has
// and skipping every other one whatever its type, so an event with more (or other) members than
// the ones used, such as a REST event's `multiValueHeaders` or a test event's odd `identity`,
// reads the same.

extension HTTPRequest {
    /// The request in `bytes`, an event in `format`.
    public init(event bytes: UnsafeBufferPointer<UInt8>, format: PayloadFormat) throws {
        var parts = Parts(format: format)
        try JSONReader.read(bytes) { reader in
            try reader.beginObject()
            while let name = try reader.nextMember() { try parts.read(name, from: &reader) }
        }
        guard let method = parts.method, let path = parts.path else { throw HTTPEventError.missingMember }
        self.init(
            format: format, method: method, path: Self.withoutTrailingSlash(path), headers: parts.headers,
            queryParameters: parts.query,
            pathParameters: parts.pathParameters, body: parts.body, isBase64Encoded: parts.isBase64Encoded,
            requestID: parts.requestID, authorizer: parts.authorizer, sourceIP: parts.sourceIP,
            cookieList: parts.cookies, route: parts.route)
    }
}

extension HTTPRequest {
    /// `path` without one trailing slash (but `/` itself): API Gateway routes `/x/` to the route
    /// `/x` (supabase-swift lists passkeys at `passkeys/`), and a handler that dispatches on its
    /// path must see the route's own (`/reauthenticate/` is `/reauthenticate`).
    static func withoutTrailingSlash(_ path: String) -> String {
        path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
    }
}

/// Why an event could not be read as an HTTP request.
public enum HTTPEventError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The method or the path is missing.
    case missingMember

    public var description: String { "the event has no HTTP method or path" }
}

/// What has been read so far, member by member.
private struct Parts {
    let format: PayloadFormat
    var method: String?
    var path: String?
    var headers: [String: String] = [:]
    var query: [String: String] = [:]
    var pathParameters: [String: String] = [:]
    var body: String?
    var isBase64Encoded = false
    var requestID = ""
    var authorizer: [String: JSONValue] = [:]
    var sourceIP: String?
    var cookies: [String] = []
    var route: String?

    init(format: PayloadFormat) {
        self.format = format
    }

    mutating func read(_ name: JSONReader.Name, from reader: inout JSONReader) throws {
        if name.is("headers") {
            headers = try reader.readStringMap(lowercasingNames: true)
        } else if name.is("queryStringParameters") {
            query = try reader.readStringMap(lowercasingNames: false)
        } else if name.is("pathParameters") {
            pathParameters = try reader.readStringMap(lowercasingNames: false)
        } else if name.is("body") {
            body = try reader.readNull() ? nil : reader.readString()
        } else if name.is("isBase64Encoded") {
            isBase64Encoded = try reader.readNull() ? false : reader.readBool()
        } else if format == .v2, name.is("cookies") {
            if case .array(let list) = try reader.readValue() { cookies = list.compactMap(\.stringValue) }
        } else if name.is("requestContext") {
            try readContext(from: &reader)
        } else if format == .v2, name.is("rawPath") {
            path = try reader.readString()
        } else if format == .v1, name.is("path") {
            path = try reader.readString()
        } else if format == .v1, name.is("httpMethod") {
            method = try reader.readString()
        } else if format == .v2, name.is("routeKey") {
            // `GET /users/me`, or `$default`, which names no path; another type names none either.
            let key = try reader.readValue().stringValue ?? ""
            route = key.split(separator: " ", maxSplits: 1).dropFirst().first.map(String.init)
        } else if format == .v1, name.is("resource") {
            route = try reader.readValue().stringValue
        } else {
            try reader.skipValue()
        }
    }

    /// `requestId`, the authorizer's context, payload 2.0's `http.method`, and the source IP
    /// (2.0's `http.sourceIp`, 1.0's `identity.sourceIp`).
    private mutating func readContext(from reader: inout JSONReader) throws {
        if try reader.readNull() { return }
        try reader.beginObject()
        while let name = try reader.nextMember() {
            if name.is("requestId") {
                requestID = try reader.readNull() ? "" : reader.readString()
            } else if name.is("authorizer") {
                authorizer = try format == .v2 ? reader.readObjectMember("lambda") : reader.readObject()
            } else if format == .v2, name.is("http") {
                let http = try reader.readValue()
                method = http["method"]?.stringValue
                sourceIP = http["sourceIp"]?.stringValue
            } else if format == .v1, name.is("identity") {
                sourceIP = try reader.readMember("sourceIp")?.stringValue
            } else {
                try reader.skipValue()
            }
        }
    }
}

extension JSONReader {
    /// An object of strings; `null` is empty, as is a member whose value is `null`; a repeated
    /// name keeps its last value.
    fileprivate mutating func readStringMap(lowercasingNames: Bool) throws -> [String: String] {
        var map = [String: String](minimumCapacity: 16)
        if try readNull() { return map }
        try beginObject()
        while let name = try nextMember() {
            let text = try name.text()
            if try readNull() { continue }
            map[lowercasingNames ? text.lowercased() : text] = try readString()
        }
        return map
    }

    /// An object's members as values; `null` is empty.
    fileprivate mutating func readObject() throws -> [String: JSONValue] {
        guard case .object(let members) = try readValue() else { return [:] }
        return members
    }

    /// One member of an object (`null` or another type has none), as an object when it is one.
    fileprivate mutating func readMember(_ wanted: StaticString) throws -> JSONValue? {
        if try readNull() { return nil }
        try beginObject()
        var found: JSONValue?
        while let name = try nextMember() {
            if name.is(wanted) { found = try readValue() } else { try skipValue() }
        }
        return found
    }

    /// One member of an object that is itself an object; empty otherwise.
    fileprivate mutating func readObjectMember(_ wanted: StaticString) throws -> [String: JSONValue] {
        guard case .object(let members)? = try readMember(wanted) else { return [:] }
        return members
    }
}
