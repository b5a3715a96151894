import GatehouseJSON
import LambdaRuntime

// Read directly, like the payload 2.0 request it shares its context with: the authorizer runs
// before every uncached request of an HTTP API.
extension APIGatewayV2AuthorizerRequest: JSONReadable {
    init(reading reader: inout JSONReader) throws {
        var strings: [String?] = Array(repeating: nil, count: 6)
        var identitySource: [String] = []
        var cookies: [String] = []
        var maps: [[String: String]] = Array(repeating: [:], count: 4)
        var requestContext: APIGatewayV2Request.Context?
        var seen = MemberSet()
        try reader.beginObject()
        while let name = try reader.nextMember() {
            if let index = Self.stringMembers.firstIndex(where: { name.is($0) }) {
                try seen.take(index)
                strings[index] = index == 5 ? try reader.readOptionalString() : try reader.readString()
            } else if let index = Self.mapMembers.firstIndex(where: { name.is($0) }) {
                try seen.take(6 + index)
                maps[index] = try reader.readStringMap()
            } else if name.is("identitySource") {
                try seen.take(10)
                identitySource = try reader.readStringList()
            } else if name.is("cookies") {
                try seen.take(11)
                cookies = try reader.readStringList()
            } else if name.is("requestContext") {
                try seen.take(12)
                requestContext = try APIGatewayV2Request.Context(reading: &reader)
            } else {
                try reader.skipValue()
            }
        }
        guard let version = strings[0], let type = strings[1], let routeArn = strings[2], let routeKey = strings[3],
            let rawPath = strings[4], let requestContext
        else { throw JSONShapeMismatch() }
        self.init(
            version: version, type: type, routeArn: routeArn, identitySource: identitySource, routeKey: routeKey,
            rawPath: rawPath, rawQueryString: strings[5] ?? "", cookies: cookies, headers: maps[0],
            queryStringParameters: maps[1], pathParameters: maps[2], stageVariables: maps[3],
            requestContext: requestContext)
    }

    /// The string members, in `strings`' order; `rawQueryString` (last) may be `null`.
    private static let stringMembers: [StaticString] = [
        "version", "type", "routeArn", "routeKey", "rawPath", "rawQueryString",
    ]
    /// The string maps, in `maps`' order.
    private static let mapMembers: [StaticString] = [
        "headers", "queryStringParameters", "pathParameters", "stageVariables",
    ]
}
