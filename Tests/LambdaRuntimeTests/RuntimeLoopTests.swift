import Foundation
import GatehouseJSON
import Logging
import NIOCore
import Testing

@testable import LambdaEvents
@testable import LambdaRuntime

/// A byte handler made of a closure, so each test states its behaviour inline.
struct ClosureHandler: ByteLambdaHandler {
    let body: @Sendable (ByteBuffer, LambdaContext) async throws -> ByteBuffer

    func handle(_ event: ByteBuffer, context: LambdaContext) async throws -> ByteBuffer {
        try await body(event, context)
    }
}

/// Collects what handlers saw, across the concurrency boundary of the loop.
actor Observations<Value: Sendable> {
    private(set) var values: [Value] = []
    func add(_ value: Value) { values.append(value) }
}

// Serialized: the loop sets the process-wide _X_AMZN_TRACE_ID, which these tests read.
@Suite(.serialized)
struct RuntimeLoopTests {
    let quietLogger = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })

    func runLoop(
        _ events: [FakeRuntimeAPI.ScriptedEvent],
        makeHandler: @escaping @Sendable () async throws -> any ByteLambdaHandler
    ) async throws -> (RuntimeLoop.Outcome, [FakeRuntimeAPI.RecordedRequest]) {
        let api = try await FakeRuntimeAPI.start(events: events)
        let loop = RuntimeLoop(endpoint: api.endpoint, logger: quietLogger, maxInvocations: events.count)
        let outcome: RuntimeLoop.Outcome
        do {
            outcome = try await loop.run(makeHandler: makeHandler)
        } catch {
            await api.stop()
            throw error
        }
        let requests = await api.recorder.requests
        await api.stop()
        return (outcome, requests)
    }

    static func event(
        _ id: String, _ body: String, trace: String? = nil, extra: [String: String] = [:]
    ) -> FakeRuntimeAPI.ScriptedEvent {
        var headers = [
            "Lambda-Runtime-Deadline-Ms": "1795363803000",
            "Lambda-Runtime-Invoked-Function-Arn": "arn:aws:lambda:us-east-1:123456789012:function:Echo",
        ]
        if let trace { headers["Lambda-Runtime-Trace-Id"] = trace }
        headers.merge(extra, uniquingKeysWith: { _, new in new })
        return .init(requestID: id, body: body, headers: headers)
    }

    @Test func successPostsTheResponseAndTheContextCarriesEveryHeader() async throws {
        let seen = Observations<(LambdaContext, String?)>()
        let events = [
            Self.event(
                "req-1", #"{"hello":"world"}"#, trace: "Root=1-5759e988-bd862e3fe1be46a994272793;Parent=1;Sampled=1",
                extra: [
                    "Lambda-Runtime-Client-Context": #"{"client":{"app_title":"demo"}}"#,
                    "Lambda-Runtime-Cognito-Identity": #"{"cognitoIdentityId":"id-1"}"#,
                ]
            )
        ]
        let (outcome, requests) = try await runLoop(events) {
            ClosureHandler { event, context in
                await seen.add((context, ProcessInfo.processInfo.environment["_X_AMZN_TRACE_ID"]))
                return ByteBuffer(string: "{\"echo\":\(String(buffer: event))}")
            }
        }
        #expect(outcome == .invocationLimitReached)
        #expect(
            requests.map(\.path) == [
                "/2018-06-01/runtime/invocation/next", "/2018-06-01/runtime/invocation/req-1/response",
            ])
        #expect(requests[0].method == "GET")
        #expect(requests[1].method == "POST")
        #expect(requests[1].bodyText == #"{"echo":{"hello":"world"}}"#)
        #expect(requests[1].headers["content-length"] == "26")

        let (context, traceEnvironment) = try #require(await seen.values.first)
        #expect(context.requestID == "req-1")
        #expect(context.deadlineMilliseconds == 1_795_363_803_000)
        #expect(context.invokedFunctionARN == "arn:aws:lambda:us-east-1:123456789012:function:Echo")
        #expect(context.traceID == "Root=1-5759e988-bd862e3fe1be46a994272793;Parent=1;Sampled=1")
        #expect(traceEnvironment == context.traceID)
        #expect(context.clientContext == #"{"client":{"app_title":"demo"}}"#)
        #expect(context.cognitoIdentity == #"{"cognitoIdentityId":"id-1"}"#)
    }

    @Test func oneConnectionServesEveryInvocation() async throws {
        let events = (1...5).map { Self.event("req-\($0)", "{}") }
        let (_, requests) = try await runLoop(events) { ClosureHandler { event, _ in event } }
        #expect(requests.count == 10)
        #expect(requests.filter { $0.path.hasSuffix("/response") }.count == 5)
        // Keep-alive: HTTP/1.1 with no "Connection: close" on any request.
        #expect(requests.allSatisfy { $0.headers["connection"] != "close" })
    }

    @Test func missingOptionalHeadersLeaveTheContextEmptyAndClearTheTraceVariable() async throws {
        let seen = Observations<(LambdaContext, String?)>()
        let events = [
            Self.event("with-trace", "{}", trace: "Root=1-aaaa"),
            FakeRuntimeAPI.ScriptedEvent(requestID: "bare", body: "{}", headers: [:]),
        ]
        let (_, requests) = try await runLoop(events) {
            ClosureHandler { event, context in
                await seen.add((context, ProcessInfo.processInfo.environment["_X_AMZN_TRACE_ID"]))
                return event
            }
        }
        #expect(requests.last?.path == "/2018-06-01/runtime/invocation/bare/response")
        let values = await seen.values
        #expect(values.count == 2)
        #expect(values[0].1 == "Root=1-aaaa")
        let (bare, traceEnvironment) = values[1]
        #expect(bare.traceID == nil)
        #expect(bare.clientContext == nil)
        #expect(bare.cognitoIdentity == nil)
        #expect(bare.invokedFunctionARN == "")
        #expect(traceEnvironment == nil, "the previous invocation's trace id must not leak into this one")
    }

    @Test func aHandlerErrorIsPostedToTheErrorEndpoint() async throws {
        struct DatabaseUnavailable: Error, CustomStringConvertible {
            var description: String { "the \"store\" is locked\nretry later" }
        }
        let events = [Self.event("req-1", "{}"), Self.event("req-2", "{}")]
        let (_, requests) = try await runLoop(events) {
            ClosureHandler { _, context in
                if context.requestID == "req-1" { throw InvocationError(type: "Unauthorized", message: "Unauthorized") }
                throw DatabaseUnavailable()
            }
        }
        let errors = requests.filter { $0.path.hasSuffix("/error") }
        #expect(
            errors.map(\.path) == [
                "/2018-06-01/runtime/invocation/req-1/error", "/2018-06-01/runtime/invocation/req-2/error",
            ])
        #expect(errors[0].headers["lambda-runtime-function-error-type"] == "Unauthorized")
        let first = try JSONDecoder().decode(JSONValue.self, from: Data(errors[0].body.readableBytesView))
        #expect(first == ["errorType": "Unauthorized", "errorMessage": "Unauthorized", "stackTrace": []])
        let second = try JSONDecoder().decode(JSONValue.self, from: Data(errors[1].body.readableBytesView))
        #expect(second["errorType"] == "DatabaseUnavailable")
        #expect(second["errorMessage"] == "the \"store\" is locked\nretry later")
        #expect(errors[1].headers["lambda-runtime-function-error-type"] == "DatabaseUnavailable")
    }

    @Test func anInitialisationFailureIsPostedToInitErrorAndNoEventIsRequested() async throws {
        let (outcome, requests) = try await runLoop([Self.event("never", "{}")]) {
            throw InvocationError(type: "Config.Missing", message: "SIGNING_KEYS is not set")
        }
        #expect(outcome == .initializationFailed)
        #expect(requests.map(\.path) == ["/2018-06-01/runtime/init/error"])
        #expect(requests[0].headers["lambda-runtime-function-error-type"] == "Config.Missing")
        let body = try JSONDecoder().decode(JSONValue.self, from: Data(requests[0].body.readableBytesView))
        #expect(body == ["errorType": "Config.Missing", "errorMessage": "SIGNING_KEYS is not set", "stackTrace": []])
    }

    @Test func aResponseOverTheLimitIsReportedAsAnErrorNeverTruncated() async throws {
        let limit = PayloadLimits.synchronousPayloadBytes
        #expect(limit == 6_291_556)
        let events = [Self.event("at-limit", "{}"), Self.event("over-limit", "{}")]
        let (_, requests) = try await runLoop(events) {
            ClosureHandler { _, context in
                let size = context.requestID == "at-limit" ? limit : limit + 1
                return ByteBuffer(repeating: UInt8(ascii: "x"), count: size)
            }
        }
        let posts = requests.filter { $0.method == "POST" }
        #expect(
            posts.map(\.path) == [
                "/2018-06-01/runtime/invocation/at-limit/response", "/2018-06-01/runtime/invocation/over-limit/error",
            ])
        #expect(posts[0].body.readableBytes == limit)
        #expect(posts[1].headers["lambda-runtime-function-error-type"] == "Function.ResponseSizeTooLarge")
        #expect(posts[1].bodyText.contains("6291557 bytes"))
        #expect(posts[1].body.readableBytes < 1024)
    }

    @Test func aTypedHandlerNamesTheFieldItCouldNotDecode() async throws {
        struct Typed: LambdaHandler {
            struct Event: Decodable { let rawPath: String }
            struct Output: Encodable {
                let body: String
                let statusCode: Int
            }
            func handle(_ event: Event, context: LambdaContext) async throws -> Output {
                Output(body: event.rawPath, statusCode: 200)
            }
        }
        let good = try String(
            contentsOf: try #require(
                Bundle.module.url(forResource: "http-api-v2-minimal", withExtension: "json", subdirectory: "Events")),
            encoding: .utf8)
        let events = [Self.event("good", good), Self.event("bad", #"{"version":"2.0","routeKey":"$default"}"#)]
        let (_, requests) = try await runLoop(events) { CodableHandlerAdapter(handler: Typed()) }
        let posts = requests.filter { $0.method == "POST" }
        #expect(posts[0].bodyText == #"{"body":"/","statusCode":200}"#)
        #expect(posts[1].path.hasSuffix("/bad/error"))
        #expect(posts[1].headers["lambda-runtime-function-error-type"] == "Runtime.UnmarshalError")
        #expect(posts[1].bodyText.contains("rawPath is missing"))
    }

    @Test func endpointParsing() {
        #expect(RuntimeAPIEndpoint("127.0.0.1:9001") == RuntimeAPIEndpoint("127.0.0.1:9001"))
        #expect(RuntimeAPIEndpoint("127.0.0.1:9001")?.port == 9001)
        #expect(RuntimeAPIEndpoint("[::1]:9001")?.host == "::1")
        #expect(RuntimeAPIEndpoint("[::1]:9001")?.hostHeader == "[::1]:9001")
        #expect(RuntimeAPIEndpoint("localhost") == nil)
        #expect(RuntimeAPIEndpoint(":9001") == nil)
        #expect(RuntimeAPIEndpoint("host:99999") == nil)
    }
}
