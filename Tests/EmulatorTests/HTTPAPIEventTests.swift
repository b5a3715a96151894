import Foundation
import GatehouseJSON
import HTTPEdge
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
        // Read as every HTTP function reads its event: HTTPEdge's reader, only the members it uses.
        let event = try text.withUnsafeBufferPointer { bytes in
            try HTTPRequest(event: bytes, format: PayloadFormat(event: bytes))
        }
        #expect(event.format == .v2)
        #expect(event.method == "POST")
        #expect(event.path == "/items/a%22b")
        #expect(event.queryParameters == ["q": "\"x\",y", "flag": ""])
        #expect(event.pathParameters == ["id": "a\"b"])
        #expect(event.route == "/items/{id}", "the route as declared, for the request metric")
        #expect(event.headers["x-multi"] == "one,two")
        #expect(event.headers["cookie"] == nil)
        #expect(event.cookieList == ["a=1", "b=\"2\""])
        #expect(event.cookie("b") == "\"2\"")
        #expect(event.body == "{\"text\":\"é\\n\"}")
        #expect(!event.isBase64Encoded)
        #expect(event.sourceIP == "192.0.2.7")
        #expect(event.requestID == "r-1")
        #expect(event.authorizer == ["userId": "u-1", "n": 2])
        // The members no function reads (and `routeKey`, read above as `route`), as API Gateway writes them.
        let value = try JSONValue(parsing: text)
        #expect(value["routeKey"] == "POST /items/{id}")
        #expect(value["rawQueryString"] == "q=%22x%22&q=y&flag")
        let context = try #require(value["requestContext"])
        #expect(context["routeKey"] == "POST /items/{id}")
        #expect(context["domainName"] == "api.example.com")
        #expect(context["domainPrefix"] == "api")
        #expect(context["http"]?["method"] == "POST")
        #expect(context["http"]?["path"] == "/items/a%22b")
        #expect(context["http"]?["protocol"] == "HTTP/1.0")
        #expect(context["http"]?["userAgent"] == "tests \"quoted\"")
        #expect(context["timeEpoch"] == 1_795_337_978_250)
        #expect(context["time"] == "22/Nov/2026:08:59:38 +0000")
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
