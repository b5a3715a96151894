import GatehouseJSON
import HTTPEdge
import LambdaRuntime
import Testing

/// One `HTTPRequest` from either payload format, reading only what a handler uses.
struct HTTPRequestReadingTests {
    static func request(_ bytes: [UInt8]) throws -> HTTPRequest {
        try bytes.withUnsafeBufferPointer { buffer in
            try HTTPRequest(event: buffer, format: PayloadFormat(event: buffer))
        }
    }

    static func request(_ text: String) throws -> HTTPRequest { try request(Array(text.utf8)) }

    @Test func aSAMHTTPAPIEvent() throws {
        let request = try Self.request(SAMEvents.bytes("exchange.v2.json"))
        #expect(request.format == .v2)
        #expect(request.method == "POST")
        #expect(request.path == "/auth/exchange")
        #expect(request.route == "/auth/exchange")
        // SAM's sample keeps a capitalised header name, which API Gateway would lower-case.
        #expect(request.header("header1") == "value1")
        #expect(request.requestID == "id")
        #expect(request.isBase64Encoded)
        #expect(try JSONRequestBody(request).string("app") == "demo")
    }

    @Test func aTrailingSlashIsNotPartOfThePathAHandlerSees() throws {
        func path(_ raw: String) throws -> String {
            try Self.request(#"{"version":"2.0","rawPath":"\#(raw)","requestContext":{"http":{"method":"GET"}}}"#).path
        }
        #expect(try path("/auth/v1/reauthenticate/") == "/auth/v1/reauthenticate")
        #expect(try path("/auth/v1/passkeys/") == "/auth/v1/passkeys")
        #expect(try path("/") == "/")
        #expect(try path("/auth/v1/user") == "/auth/v1/user")
    }

    @Test func aSAMRESTEvent() throws {
        let request = try Self.request(SAMEvents.bytes("exchange.v1.json"))
        #expect(request.format == .v1)
        #expect(request.method == "POST")
        #expect(request.path == "/auth/exchange")
        #expect(request.route == "/auth/exchange")
        // REST keeps the client's header case; the request does not.
        #expect(request.header("user-agent") == "Custom User Agent String")
        #expect(request.queryParameters == ["foo": "bar"])
        #expect(request.requestID == "c6af9ac6-7b61-11e6-9a41-93e8deadbeef")
        #expect(try JSONRequestBody(request).string("app") == "demo")
    }

    @Test func theAuthorizerContextInEachFormat() throws {
        let v2 = try Self.request(SAMEvents.bytes("user-profile.v2.json"))
        let v1 = try Self.request(SAMEvents.bytes("user-profile.v1.json"))
        #expect(v2.authorizerContext("sub") == "REPLACE-WITH-A-USER-ID")
        #expect(v1.authorizerContext("sub") == "REPLACE-WITH-A-USER-ID")
        #expect(try v1.signedInUserID(issuer: "http://127.0.0.1:3000") == "REPLACE-WITH-A-USER-ID")
        #expect(try v2.signedInUserID(issuer: "http://127.0.0.1:3000") == "REPLACE-WITH-A-USER-ID")
    }

    /// A signed-in user is a Gatehouse token's subject only: a context of another issuer (a
    /// trusted one's token, `subject` and its `iss`), or one naming no issuer, has none, even
    /// with a `sub`.
    @Test(arguments: [
        #"{"sub":"user-1","iss":"https://issuer.example.com"}"#, #"{"sub":"user-1"}"#,
        #"{"subject":"user-1","iss":"https://issuer.example.com"}"#, #"{"iss":"http://127.0.0.1:3000"}"#,
    ])
    func onlyOurIssuersContextHasASignedInUser(context: String) throws {
        let request = try Self.request(
            #"{"version":"2.0","rawPath":"/users/me","requestContext":{"http":{"method":"GET"},"authorizer":{"lambda":\#(context)}}}"#
        )
        #expect(throws: MissingSignedInUser()) { try request.signedInUserID(issuer: "http://127.0.0.1:3000") }
    }

    @Test func membersAHandlerDoesNotUseAreSkippedWhateverTheirType() throws {
        let request = try Self.request(
            #"""
            {"version":"2.0","routeKey":7,"rawPath":"/a","cookies":null,"stageVariables":[1,{"x":[]}],
             "headers":{"X-Odd":"1","gone":null},"queryStringParameters":{"q":"1"},
             "requestContext":{"http":{"method":"GET","sourceIp":false},"requestId":"r1","identity":3,
               "authorizer":{"jwt":{"claims":{}}}},
             "body":null,"isBase64Encoded":false,"extra":{"deep":[[[]]]}}
            """#)
        #expect(request.method == "GET")
        #expect(request.path == "/a")
        #expect(request.route == nil, "a routeKey that is no string names no route")
        #expect(request.headers == ["x-odd": "1"])
        #expect(request.queryParameters == ["q": "1"])
        #expect(request.requestID == "r1")
        #expect(request.authorizer.isEmpty)
        #expect(request.body == nil)
    }

    @Test func aBase64BodyIsDecodedOnceForItsBytes() throws {
        let request = try Self.request(
            #"{"httpMethod":"POST","path":"/v","body":"eyJhIjoxfQ==","isBase64Encoded":true,"requestContext":null}"#)
        #expect(try request.bodyBytes() == Array(#"{"a":1}"#.utf8))
        let broken = try Self.request(#"{"httpMethod":"POST","path":"/v","body":"%%%","isBase64Encoded":true}"#)
        #expect(throws: RequestBodyError.notJSON) { try broken.bodyBytes() }
    }

    @Test func anEventWithoutMethodOrPathIsRefused() {
        #expect(throws: HTTPEventError.missingMember) { try Self.request(#"{"version":"2.0","rawPath":"/x"}"#) }
        #expect(throws: (any Error).self) { try Self.request(#"{"version":"2.0","rawPath":5}"#) }
    }
}
