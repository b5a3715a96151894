import Foundation
import GatehouseJSON
import Testing

@testable import LambdaEvents
@testable import LambdaRuntime

/// Every event type decoded from real-shaped JSON (after the AWS documentation's examples).
struct EventDecodingTests {
    /// The fixture decoded by the runtime's decoder, which must agree with Foundation's.
    func fixture<T: Decodable & Equatable>(_ name: String, as _: T.Type) throws -> T {
        let url = try #require(Bundle.module.url(forResource: name, withExtension: "json", subdirectory: "Events"))
        let data = try Data(contentsOf: url)
        let ours = try DecoderComparison.ours(T.self, data)
        #expect(ours == (try JSONDecoder().decode(T.self, from: data)), "JSONValueDecoder and JSONDecoder differ")
        return ours
    }

    /// What Foundation's decoder refuses, the runtime's refuses the same way: the same case at
    /// the same path, which is what the runtime's error message names.
    @Test(
        arguments: [
            ("rawPath", nil, "keyNotFound rawPath"),
            ("headers", ["a": 1], "typeMismatch headers.a"),
            ("headers", ["a": nil], "valueNotFound headers.a"),
            ("headers", "text", "typeMismatch headers"),
            ("requestContext", nil, "keyNotFound requestContext"),
            ("requestContext", .null, "valueNotFound requestContext"),
            ("requestContext", [], "typeMismatch requestContext"),
            ("cookies", ["a", 2], "typeMismatch cookies.[1]"),
            ("isBase64Encoded", "yes", "typeMismatch isBase64Encoded"),
            ("version", 2, "typeMismatch version"),
        ] as [(String, JSONValue?, String)])
    func badMembersFailAsWithJSONDecoder(member: String, value: JSONValue?, expected: String) throws {
        let url = try #require(
            Bundle.module.url(forResource: "http-api-v2-minimal", withExtension: "json", subdirectory: "Events"))
        guard case .object(var members) = try JSONValue(parsing: Data(contentsOf: url)) else {
            Issue.record("the fixture is not an object")
            return
        }
        members[member] = value
        let data = Data(JSONValue.object(members).serialized.utf8)
        let foundation = #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(APIGatewayV2Request.self, from: data)
        }
        let ours = #expect(throws: DecodingError.self) { try DecoderComparison.ours(APIGatewayV2Request.self, data) }
        #expect(foundation.map(DecoderComparison.shape) == expected)
        #expect(ours.map(DecoderComparison.shape) == expected)
        // The direct path declines, so the error is Decodable's.
        #expect(throws: (any Error).self) { try DecoderComparison.direct(data) }
    }

    /// The direct path reads the payload 2.0 events as `Decodable` does: the fixtures here and
    /// the repository's sample events for HTTP functions.
    @Test func theDirectPathGivesWhatDecodableGives() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        var files = ["http-api-v2", "http-api-v2-minimal"].compactMap {
            Bundle.module.url(forResource: $0, withExtension: "json", subdirectory: "Events")
        }
        files += ["user-profile", "exchange", "logout", "refresh", "delete-account", "jwks", "verify-code"].map {
            root.appendingPathComponent("events/\($0).json")
        }
        #expect(files.count == 9)
        for file in files {
            let text = try Data(contentsOf: file)
            let direct = try DecoderComparison.direct(text)
            #expect(direct == (try DecoderComparison.decodable(APIGatewayV2Request.self, text)), "\(file.path)")
        }
    }

    /// Text the direct path reads differently from a tree, each decoded as `Decodable` decodes it:
    /// a repeated member (the last wins), names written with escapes, `null` maps and lists,
    /// unknown members of any shape, and JSON that breaks inside a member nobody reads.
    @Test func theDirectPathAgreesOnAwkwardText() throws {
        let url = try #require(
            Bundle.module.url(forResource: "http-api-v2-minimal", withExtension: "json", subdirectory: "Events"))
        let text = try String(contentsOf: url, encoding: .utf8)
        let body = try #require(text.lastIndex(of: "}"))
        func with(_ members: String) -> String { String(text[..<body]) + ", " + members + "}" }
        let readable = [
            #""\u0062ody": "escaped name", "h\u00e9aders": {"x": "y"}, "hé": "x""#,
            #""cookies": null, "stageVariables": null, "body": null, "pathParameters": null"#,
            #""extra": [1, -2.5e3, true, null, {"deep": [[{}]]}], "more": "x""#,
        ]
        for members in readable {
            let data = Data(with(members).utf8)
            let decodable = try DecoderComparison.decodable(APIGatewayV2Request.self, data)
            #expect(try DecoderComparison.ours(APIGatewayV2Request.self, data) == decodable, "\(members)")
            #expect(decodable == (try JSONDecoder().decode(APIGatewayV2Request.self, from: data)), "\(members)")
        }
        // A repeated name keeps its last value, as the runtime's parser has always done (Foundation
        // keeps another); the direct path declines such text and leaves it to `Decodable`.
        let repeated = [
            #""rawPath": "/second""#,
            #""requestContext": {"accountId": "1", "apiId": "a", "domainName": "d", "domainPrefix": "p", "#
                + #""http": {"method": "GET", "path": "/", "protocol": "HTTP/1.1", "sourceIp": "1.2.3.4", "#
                + #""userAgent": "u"}, "requestId": "r", "routeKey": "$default", "stage": "$default", "#
                + #""time": "t", "timeEpoch": 1}"#,
            #""headers": null, "isBase64Encoded": null"#,
            #""headers": {"a": "1", "a": "2", "b\u00e9": "3", "bé": "4"}"#,
        ]
        var events: [APIGatewayV2Request] = []
        for members in repeated {
            let data = Data(with(members).utf8)
            #expect(throws: MemberSet.RepeatedMember.self) { try DecoderComparison.direct(data) }
            let ours = try DecoderComparison.ours(APIGatewayV2Request.self, data)
            #expect(ours == (try DecoderComparison.decodable(APIGatewayV2Request.self, data)), "\(members)")
            events.append(ours)
        }
        #expect(events[0].rawPath == "/second")
        #expect(events[1].requestContext.http.sourceIp == "1.2.3.4")
        #expect(events[2].headers.isEmpty && !events[2].isBase64Encoded)
        #expect(events[3].headers == ["a": "2", "bé": "4"])
        for broken in [#""extra": [1, tru]"#, #""extra": {"a": 01}"#, #""extra": "\q""#] {
            let ours = #expect(throws: DecodingError.self) {
                try DecoderComparison.ours(APIGatewayV2Request.self, Data(with(broken).utf8))
            }
            #expect(ours.map(DecoderComparison.shape) == "dataCorrupted ", "\(broken)")
        }
        let trailing = #expect(throws: DecodingError.self) {
            try DecoderComparison.ours(APIGatewayV2Request.self, Data((text + " {}").utf8))
        }
        #expect(trailing.map(DecoderComparison.shape) == "dataCorrupted ")
    }

    /// Numbers that do not fit the integer asked for, and text that is not JSON, are
    /// `dataCorrupted`, as with Foundation; for a number, the runtime's error also names the
    /// member (Foundation's says only that the data was not valid JSON).
    @Test func numbersThatDoNotFitAndNonJSONAreDataCorrupted() throws {
        let url = try #require(
            Bundle.module.url(forResource: "http-api-v2-minimal", withExtension: "json", subdirectory: "Events"))
        let text = try String(contentsOf: url, encoding: .utf8)
        for bad in [
            text.replacingOccurrences(of: "1583348638390", with: "1.5"),
            text.replacingOccurrences(of: "1583348638390", with: "1e30"),
        ] {
            let data = Data(bad.utf8)
            let foundation = #expect(throws: DecodingError.self) {
                try JSONDecoder().decode(APIGatewayV2Request.self, from: data)
            }
            let ours = #expect(throws: DecodingError.self) {
                try DecoderComparison.ours(APIGatewayV2Request.self, data)
            }
            #expect(throws: JSONShapeMismatch.self) { try DecoderComparison.direct(data) }
            #expect(foundation.map(DecoderComparison.shape)?.hasPrefix("dataCorrupted") == true)
            #expect(ours.map(DecoderComparison.shape) == "dataCorrupted requestContext.timeEpoch")
        }
        let ours = #expect(throws: DecodingError.self) {
            try DecoderComparison.ours(APIGatewayV2Request.self, Data("{".utf8))
        }
        #expect(ours.map(DecoderComparison.shape) == "dataCorrupted ")
    }

    @Test func httpAPIv2Request() throws {
        let event = try fixture("http-api-v2", as: APIGatewayV2Request.self)
        #expect(event.version == "2.0")
        #expect(event.routeKey == "POST /auth/refresh/{client}")
        #expect(event.rawQueryString == "parameter1=value1&parameter1=value2&parameter2=value")
        #expect(event.cookies == ["cookie1=a", "cookie2=b"])
        #expect(event.headers["header2"] == "value1,value2")
        #expect(event.queryStringParameters == ["parameter1": "value1,value2", "parameter2": "value"])
        #expect(event.pathParameters == ["client": "ios"])
        #expect(event.stageVariables == ["stageVariable1": "value1"])
        #expect(event.isBase64Encoded)
        #expect(event.body == "eyJyZWZyZXNoVG9rZW4iOiJhYmMifQ==")
        #expect(event.requestContext.http.method == "POST")
        #expect(event.requestContext.http.sourceIp == "192.0.2.1")
        #expect(event.requestContext.timeEpoch == 1_583_348_638_390)
        #expect(event.requestContext.authorizer?.lambda?["scopeCount"] == 2)
        #expect(event.requestContext.authorizer?.lambda?["verified"] == true)
        #expect(event.requestContext.authentication?["clientCert"]?["subjectDN"] == "www.example.com")
    }

    @Test func httpAPIv2RequestWithoutOptionalMembersDecodesEmpty() throws {
        let event = try fixture("http-api-v2-minimal", as: APIGatewayV2Request.self)
        #expect(event.cookies.isEmpty)
        #expect(event.queryStringParameters.isEmpty)
        #expect(event.pathParameters.isEmpty)
        #expect(event.stageVariables.isEmpty)
        #expect(event.body == nil)
        #expect(event.requestContext.authorizer == nil)
    }

    @Test func httpAPIv2RoundTripLeavesEmptyMapsOut() throws {
        let event = try fixture("http-api-v2-minimal", as: APIGatewayV2Request.self)
        let encoded = try JSONDecoder().decode(JSONValue.self, from: JSONEncoder().encode(event))
        #expect(encoded["queryStringParameters"] == nil)
        #expect(encoded["cookies"] == nil)
        #expect(try JSONDecoder().decode(APIGatewayV2Request.self, from: JSONEncoder().encode(event)) == event)
    }

    @Test func restV1RequestWithNullMaps() throws {
        let event = try fixture("rest-v1", as: APIGatewayRequest.self)
        #expect(event.version == nil)
        #expect(event.resource == "/users/{id}")
        #expect(event.httpMethod == "GET")
        #expect(event.multiValueHeaders["Header2"] == ["value1", "value2"])
        #expect(event.queryStringParameters.isEmpty)
        #expect(event.multiValueQueryStringParameters.isEmpty)
        #expect(event.stageVariables.isEmpty)
        #expect(event.pathParameters == ["id": "42"])
        #expect(event.body == nil)
        #expect(event.requestContext.identity.sourceIp == "192.0.2.1")
        #expect(event.requestContext.identity.user == nil)
        #expect(event.requestContext.resourceId == nil)
        #expect(event.requestContext.authorizer["principalId"] == "user-123")
        #expect(event.requestContext.authorizer["integrationLatency"] == 12)
    }

    @Test func restV1EncodesEmptyMapsAsNullAsAPIGatewayDoes() throws {
        let event = try fixture("rest-v1", as: APIGatewayRequest.self)
        let encoded = try JSONDecoder().decode(JSONValue.self, from: JSONEncoder().encode(event))
        #expect(encoded["queryStringParameters"] == .null)
        #expect(encoded["stageVariables"] == .null)
        #expect(encoded["body"] == .null)
        #expect(try JSONDecoder().decode(APIGatewayRequest.self, from: JSONEncoder().encode(event)) == event)
    }

    @Test func policyResponseAcceptsOneStringOrAList() throws {
        let response = try fixture("authorizer-policy-response", as: APIGatewayAuthorizerPolicyResponse.self)
        #expect(response.principalId == "user-123")
        #expect(response.policyDocument.version == "2012-10-17")
        let statements = response.policyDocument.statement
        #expect(statements.count == 2)
        #expect(statements[0].action == ["execute-api:Invoke"])
        #expect(statements[0].effect == .allow)
        #expect(statements[0].resource == ["arn:aws:execute-api:us-west-2:123456789012:ymy8tbxw7b/*/*"])
        #expect(statements[1].effect == .deny)
        #expect(statements[1].resource == ["arn:aws:execute-api:us-west-2:123456789012:ymy8tbxw7b/*/DELETE/admin"])
        #expect(response.context?["numberKey"] == 1)
        #expect(response.usageIdentifierKey == "{api-key}")
        let encoded = try JSONDecoder().decode(JSONValue.self, from: JSONEncoder().encode(response))
        #expect(encoded["policyDocument"]?["Statement"]?.arrayValue?.first?["Effect"] == "Allow")
    }

    @Test func simpleResponse() throws {
        let response = try fixture("authorizer-simple-response", as: APIGatewayV2AuthorizerSimpleResponse.self)
        #expect(response.isAuthorized)
        #expect(response.context?["sub"] == "user-123")
        #expect(response.context?["exampleKey"] == 7)
    }

    @Test func aMissingRequiredMemberIsADecodingError() {
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(APIGatewayV2AuthorizerSimpleResponse.self, from: Data(#"{"context":{}}"#.utf8))
        }
    }

    @Test func jsonValueKeepsWholeNumbersWhole() throws {
        let value: JSONValue = ["epoch": .number(1_795_363_800_000), "ratio": .number(0.5), "list": [true, nil, "x"]]
        let text = String(decoding: try JSONEncoder().encode(value), as: UTF8.self)
        #expect(text.contains("\"epoch\":1795363800000"))
        #expect(text.contains("\"ratio\":0.5"))
        #expect(try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8)) == value)
    }

    @Test func logAndErrorTextEscapesControlCharacters() {
        var output = ""
        JSONValue.appendQuoted("a\"b\\c\n\u{01}é", to: &output)
        #expect(output == #""a\"b\\c\n\u0001é""#)
    }
}
