import Foundation
import Testing

@testable import Emulator

/// How the Invoke API reads the function a path names, as AWS allows it.
struct LambdaInvokeAPITests {
    @Test func aFunctionIsNamedByNameARNOrPartialARNAtItsLatestVersion() {
        for named in [
            "Exchange", "Exchange:$LATEST", "123456789012:Exchange",
            "arn:aws:lambda:us-east-1:123456789012:function:Exchange",
            "arn:aws:lambda:eu-west-1:000000000000:function:Exchange:$LATEST",
        ] {
            #expect(LambdaInvokeAPI.functionName(named, query: "") == "Exchange", "\(named)")
        }
        #expect(LambdaInvokeAPI.functionName("Exchange", query: "Qualifier=%24LATEST") == "Exchange")
        for refused in [
            "Exchange:7", "Exchange:live", "arn:aws:s3:::bucket", "arn:aws:lambda:us-east-1:1:layer:L", "", ":",
            "a:b:c",
        ] {
            #expect(LambdaInvokeAPI.functionName(refused, query: "") == nil, "\(refused)")
        }
        #expect(LambdaInvokeAPI.functionName("Exchange", query: "Qualifier=3") == nil)
    }

    @Test func aTailIsTheLast4KBOfTheInvocationsLogBetweenLambdasLines() throws {
        let short = TailLog(requestID: "r-1", lines: Array("one\ntwo\n".utf8), duration: .milliseconds(12))
        #expect(
            short.text
                == "START RequestId: r-1 Version: $LATEST\none\ntwo\nEND RequestId: r-1\nREPORT RequestId: r-1\tDuration: 12.0 ms\tBilled Duration: 12 ms\n"
        )
        let long = TailLog(requestID: "r-2", lines: Array(repeating: UInt8(ascii: "x"), count: 10_000), duration: .zero)
        let decoded = try #require(Data(base64Encoded: long.base64))
        #expect(decoded.count == 4096 && String(decoding: decoded, as: UTF8.self).hasSuffix("Billed Duration: 0 ms\n"))
    }
}
