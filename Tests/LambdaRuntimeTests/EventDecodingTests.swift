import Foundation
import GatehouseJSON
import Testing

@testable import LambdaEvents
@testable import LambdaRuntime

/// A typed handler's events decoded by the runtime (GatehouseJSON's parser and
/// `JSONValueDecoder`), which must agree with Foundation's `JSONDecoder`: on the value, and on
/// the error's case and path, which is what the runtime's error message names. The authorizer's
/// answers read back from real-shaped JSON (after the AWS documentation's examples).
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
            try JSONDecoder().decode(SampleEvent.self, from: data)
        }
        let ours = #expect(throws: DecodingError.self) { try DecoderComparison.ours(SampleEvent.self, data) }
        #expect(foundation.map(DecoderComparison.shape) == expected)
        #expect(ours.map(DecoderComparison.shape) == expected)
    }

    @Test func anHTTPEventDecodesAsWithJSONDecoder() throws {
        let event = try fixture("http-api-v2-minimal", as: SampleEvent.self)
        #expect(event.rawPath == "/")
        #expect(event.headers == ["host": "127.0.0.1:3000"])
        #expect(event.cookies == nil)
        #expect(event.requestContext.http.sourceIp == "127.0.0.1")
        #expect(event.requestContext.timeEpoch == 1_583_348_638_390)
    }

    /// Names written with escapes, `null` for optional members, unknown members of any shape,
    /// and a repeated name (the last wins, as the runtime's parser has always done) decode as
    /// `Decodable` does; JSON that breaks inside a member nobody reads, or trailing text, is
    /// `dataCorrupted`.
    @Test func awkwardTextDecodesAsDecodableDoes() throws {
        let url = try #require(
            Bundle.module.url(forResource: "http-api-v2-minimal", withExtension: "json", subdirectory: "Events"))
        let text = try String(contentsOf: url, encoding: .utf8)
        let body = try #require(text.lastIndex(of: "}"))
        func with(_ members: String) -> Data { Data((String(text[..<body]) + ", " + members + "}").utf8) }
        for members in [
            #""\u0062ody": "escaped name", "h\u00e9aders": {"x": "y"}, "hé": "x""#,
            #""cookies": null, "stageVariables": null, "body": null"#,
            #""extra": [1, -2.5e3, true, null, {"deep": [[{}]]}], "more": "x""#,
        ] {
            let data = with(members)
            #expect(
                try DecoderComparison.ours(SampleEvent.self, data)
                    == (try JSONDecoder().decode(SampleEvent.self, from: data)), "\(members)")
        }
        let repeated = try DecoderComparison.ours(
            SampleEvent.self, with(#""rawPath": "/second", "headers": {"a": "1", "a": "2"}"#))
        #expect(repeated.rawPath == "/second")
        #expect(repeated.headers == ["a": "2"])
        for broken in [#""extra": [1, tru]"#, #""extra": {"a": 01}"#, #""extra": "\q""#] {
            let ours = #expect(throws: DecodingError.self) {
                try DecoderComparison.ours(SampleEvent.self, with(broken))
            }
            #expect(ours.map(DecoderComparison.shape) == "dataCorrupted ", "\(broken)")
        }
        let trailing = #expect(throws: DecodingError.self) {
            try DecoderComparison.ours(SampleEvent.self, Data((text + " {}").utf8))
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
                try JSONDecoder().decode(SampleEvent.self, from: data)
            }
            let ours = #expect(throws: DecodingError.self) {
                try DecoderComparison.ours(SampleEvent.self, data)
            }
            #expect(foundation.map(DecoderComparison.shape)?.hasPrefix("dataCorrupted") == true)
            #expect(ours.map(DecoderComparison.shape) == "dataCorrupted requestContext.timeEpoch")
        }
        let ours = #expect(throws: DecodingError.self) {
            try DecoderComparison.ours(SampleEvent.self, Data("{".utf8))
        }
        #expect(ours.map(DecoderComparison.shape) == "dataCorrupted ")
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
