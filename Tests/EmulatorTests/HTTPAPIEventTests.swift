import Foundation
import GatehouseJSON
import LambdaEvents
import LambdaRuntime
import Testing

@testable import Emulator

/// The payload 2.0 event start-api writes, read back the way a function reads it.
struct HTTPAPIEventTests {
    static let route = HTTPRoute(
        function: "F", event: "E", kind: .httpAPI, method: "POST", path: "/items/{id}", payloadFormat: .v2,
        authorizer: "Gatehouse")

    @Test func everyMemberReadsBackAsAFunctionReadsIt() throws {
        let request = APIRequest(
            method: "post", rawPath: "/items/a%22b", rawQuery: "q=%22x%22&q=y&flag",
            headers: [
                ("Host", "api.example.com"), ("User-Agent", "tests \"quoted\""), ("X-Multi", "one"),
                ("x-multi", "two"), ("Cookie", "a=1; b=\"2\""), ("Content-Type", "application/json"),
            ],
            body: Array(#"{"text":"é\n"}"#.utf8), sourceIP: "192.0.2.7", httpProtocol: "HTTP/1.0")
        let match = RouteTable.Match(route: Self.route, pathParameters: ["id": "a%22b"])
        let text = HTTPAPIEvent.payload(
            request, match: match, requestID: "r-1", now: 1_795_337_978.25, authorizer: ["userId": "u-1", "n": 2])
        let event = try text.withUnsafeBufferPointer { try EventDecoding.decode(APIGatewayV2Request.self, from: $0) }
        #expect(event == (try JSONDecoder().decode(APIGatewayV2Request.self, from: Data(text))))
        #expect(event.routeKey == "POST /items/{id}")
        #expect(event.rawPath == "/items/a%22b")
        #expect(event.rawQueryString == "q=%22x%22&q=y&flag")
        #expect(event.queryStringParameters == ["q": "\"x\",y", "flag": ""])
        #expect(event.pathParameters == ["id": "a\"b"])
        #expect(event.headers["x-multi"] == "one,two")
        #expect(event.headers["cookie"] == nil)
        #expect(event.cookies == ["a=1", "b=\"2\""])
        #expect(event.body == "{\"text\":\"é\\n\"}")
        #expect(!event.isBase64Encoded)
        let context = event.requestContext
        #expect(context.domainName == "api.example.com")
        #expect(context.domainPrefix == "api")
        #expect(context.http.method == "POST")
        #expect(context.http.protocol == "HTTP/1.0")
        #expect(context.http.sourceIp == "192.0.2.7")
        #expect(context.http.userAgent == "tests \"quoted\"")
        #expect(context.requestId == "r-1")
        #expect(context.timeEpoch == 1_795_337_978_250)
        #expect(context.time == "22/Nov/2026:08:59:38 +0000")
        #expect(context.authorizer?.lambda == ["userId": "u-1", "n": 2])
        // The value form (for authorizer events) is the same text read back.
        #expect(
            HTTPAPIEvent.make(
                request, match: match, requestID: "r-1", now: 1_795_337_978.25, authorizer: ["userId": "u-1", "n": 2])
                == (try JSONValue(parsing: text)))
    }

    @Test func aBinaryBodyIsBase64AndNoBodyIsLeftOut() throws {
        let match = RouteTable.Match(route: Self.route, pathParameters: ["id": "1"])
        let binary = try JSONValue(
            parsing: HTTPAPIEvent.payload(
                APIRequest(
                    method: "POST", rawPath: "/items/1", headers: [("Content-Type", "image/png")], body: [0, 255]),
                match: match, requestID: "r", now: 0))
        #expect(binary["body"] == "AP8=")
        #expect(binary["isBase64Encoded"] == true)
        let empty = try JSONValue(
            parsing: HTTPAPIEvent.payload(
                APIRequest(method: "GET", rawPath: "/items/1"), match: match, requestID: "r", now: 0))
        #expect(empty["body"] == nil)
        #expect(empty["isBase64Encoded"] == false)
        #expect(empty["cookies"] == nil)
        #expect(empty["queryStringParameters"] == nil)
        #expect(empty["requestContext"]?["authorizer"] == nil)
        #expect(empty["headers"] == [:])
    }
}
