import Foundation
import Testing

@testable import LambdaRuntime

/// The API id an event came through, in every shape API Gateway sends, and nothing an issuer URL
/// could be bent with.
struct EventAPIIDTests {
    func read(_ text: String) -> String? {
        Array(text.utf8).withUnsafeBufferPointer { EventAPIID.read($0) }
    }

    func sample(_ name: String) throws -> String {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        return try String(contentsOf: root.appendingPathComponent("events/\(name)"), encoding: .utf8)
    }

    @Test func everyShapeNamesItsAPI() throws {
        #expect(read(try sample("user-profile.json")) == "abc123def4")
        #expect(read(try sample("authorizer-v2.json")) == "abc123def4")
        // A TOKEN authorizer's event has only its method ARN.
        #expect(read(try sample("authorizer-token-v1.json")) == "abc123def4")
        #expect(read(#"{"requestContext":{"stage":"prod","apiId":"a1b2c3d4e5"},"body":"{}"}"#) == "a1b2c3d4e5")
    }

    @Test func nothingElseIsAnID() {
        for event in [
            "{}", "[]", "not json", #"{"requestContext":null}"#, #"{"requestContext":{"apiId":7}}"#,
            #"{"apiId":"top1"}"#, #"{"body":"{\"requestContext\":{\"apiId\":\"inbody\"}}"}"#,
            #"{"requestContext":{"apiId":""}}"#, #"{"requestContext":{"apiId":"ABC123"}}"#,
            #"{"requestContext":{"apiId":"evil.example.com/"}}"#, #"{"requestContext":{"apiId":"a@b"}}"#,
            // A function URL's id, and ids of other lengths than API Gateway's 10.
            #"{"requestContext":{"apiId":"\#(String(repeating: "a", count: 32))"}}"#,
            #"{"requestContext":{"apiId":"abc123def"}}"#, #"{"requestContext":{"apiId":"abc123def45"}}"#,
            #"{"methodArn":"arn:aws:execute-api:us-east-1:1:/abc123def4/GET/x"}"#,
            #"{"methodArn":"arn:aws:lambda:us-east-1:1:function:f"}"#, #"{"methodArn":"abc"}"#,
        ] {
            #expect(read(event) == nil, "\(event)")
        }
    }
}
