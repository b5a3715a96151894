import Foundation
import GatehouseJSON
import Logging
import NIOCore
import Testing

@testable import LambdaRuntime

/// The loop's side of Lambda's contract, against an in-memory Runtime API: no sockets, so each
/// test says only what the loop must do with an event.
@Suite(.serialized)
struct RuntimeLoopContractTests {
    /// A Runtime API in memory: scripted events out, calls recorded. Unchecked Sendable: one loop
    /// uses it, one call at a time, and a handler records into it only while the loop waits.
    final class InMemoryRuntimeAPI: RuntimeAPI, @unchecked Sendable {
        enum Call: Equatable {
            case next
            /// A handler's `AfterResponse` job ran.
            case later(String)
            case respond(String, String)
            case fail(String, InvocationError)
            case failInit(InvocationError)
        }

        var events: [(id: String, headers: [String: String], body: String)]
        var calls: [Call] = []
        var refusesResponses = false
        var recordsNext = false

        init(events: [(id: String, headers: [String: String], body: String)]) {
            self.events = events
        }

        func next() throws -> RuntimeEvent {
            if recordsNext { calls.append(.next) }
            let event = events.removeFirst()
            let headers = event.headers
            return RuntimeEvent(
                requestID: event.id, header: { headers[$0] }, body: ByteBuffer(string: event.body))
        }

        func respond(requestID: String, payload: ByteBuffer) throws -> Bool {
            calls.append(.respond(requestID, String(buffer: payload)))
            return !refusesResponses
        }

        func fail(requestID: String, error: InvocationError) throws {
            calls.append(.fail(requestID, error))
        }

        func failInit(_ error: InvocationError) throws {
            calls.append(.failInit(error))
        }
    }

    struct Failure: Error {}

    static let logger = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })

    func run(
        _ api: InMemoryRuntimeAPI, handler: @escaping @Sendable (ByteBuffer, LambdaContext) async throws -> ByteBuffer
    ) async throws -> RuntimeLoop.Outcome {
        let loop = RuntimeLoop(
            endpoint: RuntimeAPIEndpoint("127.0.0.1:9")!, logger: Self.logger, maxInvocations: api.events.count)
        return try await loop.run(api: api) { ClosureHandler(body: handler) }
    }

    @Test func eachEventGetsItsAnswerUnderItsOwnRequestID() async throws {
        let api = InMemoryRuntimeAPI(events: [("a", [:], "1"), ("b", [:], "2")])
        let outcome = try await run(api) { event, context in
            ByteBuffer(string: "\(context.requestID):\(String(buffer: event))")
        }
        #expect(outcome == .invocationLimitReached)
        #expect(api.calls == [.respond("a", "a:1"), .respond("b", "b:2")])
    }

    /// Work a handler leaves for later runs once its response is posted, before the loop asks
    /// for the next event; a failing job is logged and changes nothing; a failed invocation's
    /// jobs never run.
    @Test func workLeftForAfterTheResponseRunsBetweenRespondAndNext() async throws {
        let api = InMemoryRuntimeAPI(events: [("a", [:], "1"), ("b", [:], "fail")])
        api.recordsNext = true
        _ = try await run(api) { event, context in
            let id = context.requestID
            try await AfterResponse.later { api.calls.append(.later(id)) }
            try await AfterResponse.later { throw Failure() }
            if String(buffer: event) == "fail" { throw InvocationError(type: "Bad", message: "no") }
            return event
        }
        #expect(
            api.calls == [
                .next, .respond("a", "1"), .later("a"), .next, .fail("b", InvocationError(type: "Bad", message: "no")),
            ])
    }

    @Test func aThrowingHandlerFailsOnlyItsInvocation() async throws {
        let api = InMemoryRuntimeAPI(events: [("a", [:], "x"), ("b", [:], "y")])
        _ = try await run(api) { event, _ in
            if String(buffer: event) == "x" { throw InvocationError(type: "Bad", message: "no x") }
            return event
        }
        #expect(api.calls == [.fail("a", InvocationError(type: "Bad", message: "no x")), .respond("b", "y")])
    }

    @Test func anAnswerOverTheLimitIsResponseSizeTooLarge() async throws {
        let api = InMemoryRuntimeAPI(events: [("a", [:], "")])
        _ = try await run(api) { _, _ in ByteBuffer(repeating: 0x20, count: PayloadLimits.synchronousPayloadBytes + 1) }
        guard case .fail("a", let error)? = api.calls.first else {
            Issue.record("expected a failure, got \(api.calls)")
            return
        }
        #expect(error.type == "Function.ResponseSizeTooLarge")
    }

    @Test func aFailedInitialisationIsReportedAndNoEventIsTaken() async throws {
        let api = InMemoryRuntimeAPI(events: [("a", [:], "")])
        let loop = RuntimeLoop(endpoint: RuntimeAPIEndpoint("127.0.0.1:9")!, logger: Self.logger, maxInvocations: 1)
        let outcome = try await loop.run(api: api) { () async throws -> any ByteLambdaHandler in throw Failure() }
        #expect(outcome == .initializationFailed)
        #expect(api.events.count == 1)
        guard case .failInit(let error)? = api.calls.first, api.calls.count == 1 else {
            Issue.record("expected one init failure, got \(api.calls)")
            return
        }
        #expect(error.type == "Failure")
    }

    @Test func theTraceIDIsSetForItsInvocationOnly() async throws {
        let api = InMemoryRuntimeAPI(events: [("a", ["Lambda-Runtime-Trace-Id": "Root=1-a"], ""), ("b", [:], "")])
        _ = try await run(api) { _, context in
            ByteBuffer(
                string: "\(context.traceID ?? "-")|\(ProcessInfo.processInfo.environment["_X_AMZN_TRACE_ID"] ?? "-")")
        }
        #expect(api.calls == [.respond("a", "Root=1-a|Root=1-a"), .respond("b", "-|-")])
    }

    @Test func aRefusedResponseDoesNotStopTheLoop() async throws {
        let api = InMemoryRuntimeAPI(events: [("a", [:], "1"), ("b", [:], "2")])
        api.refusesResponses = true
        let outcome = try await run(api) { event, _ in event }
        #expect(outcome == .invocationLimitReached)
        #expect(api.calls.count == 2)
    }
}
