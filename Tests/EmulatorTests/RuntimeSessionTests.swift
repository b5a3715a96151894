import Foundation
import NIOCore
import Synchronization
import Testing

@testable import Emulator

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The Runtime API's state machine, driven directly and over real HTTP.
struct RuntimeSessionTests {
    static func invocation(_ id: String, timeout: Duration = .seconds(60)) -> Invocation {
        Invocation(
            requestID: id, payload: ByteBuffer(string: #"{"n":1}"#),
            invokedFunctionARN: "arn:aws:lambda:us-east-1:012345678912:function:F", timeout: timeout
        )
    }

    /// Waits (without sleeping) until the runtime side has taken an event.
    static func nextEvent(_ session: RuntimeSession) async -> Invocation? {
        if case .event(let invocation) = await session.next() { return invocation }
        return nil
    }

    @Test func aResponseReachesTheInvoker() async throws {
        let session = RuntimeSession()
        async let result = session.invoke(Self.invocation("r-1"))
        let handedOut = try #require(await Self.nextEvent(session))
        #expect(handedOut.requestID == "r-1")
        #expect(session.postResponse(requestID: "r-1", body: ByteBuffer(string: "ok")) == .accepted)
        let (outcome, timing) = await result
        #expect(outcome == .response(ByteBuffer(string: "ok")))
        #expect(timing.handedOut != nil)
    }

    /// The session keeps one timeout timer. An event with a shorter timeout than the one the
    /// timer was set for is not held to the longer one.
    @Test func aShorterTimeoutReplacesTheTimer() async throws {
        let session = RuntimeSession()
        async let long = session.invoke(Self.invocation("r-1", timeout: .seconds(60)))
        _ = await Self.nextEvent(session)
        #expect(session.postResponse(requestID: "r-1", body: ByteBuffer(string: "ok")) == .accepted)
        #expect(await long.0 == .response(ByteBuffer(string: "ok")))

        async let unanswered = session.invoke(Self.invocation("r-2", timeout: .milliseconds(300)))
        _ = await Self.nextEvent(session)
        let (outcome, timing) = await unanswered
        #expect(outcome == .timedOut(seconds: 0.3))
        let handedOut = try #require(timing.handedOut)
        #expect(timing.ended - handedOut >= .milliseconds(300))
        #expect(timing.ended - handedOut < .seconds(30))
    }

    /// The timer set for an earlier event fires before a later event's deadline: it is set again
    /// for that deadline rather than cutting the event short. (Seconds, not milliseconds: the
    /// first event must get its answer in time even while the whole suite starts on 2 cores.)
    @Test func aTimerSetForAnEarlierEventWaitsForTheLaterDeadline() async throws {
        let session = RuntimeSession()
        async let first = session.invoke(Self.invocation("r-1", timeout: .seconds(15)))
        _ = await Self.nextEvent(session)
        #expect(session.postResponse(requestID: "r-1", body: ByteBuffer(string: "ok")) == .accepted)
        #expect(await first.0 == .response(ByteBuffer(string: "ok")))

        async let unanswered = session.invoke(Self.invocation("r-2", timeout: .seconds(16)))
        _ = await Self.nextEvent(session)
        let (outcome, timing) = await unanswered
        #expect(outcome == .timedOut(seconds: 16))
        let handedOut = try #require(timing.handedOut)
        #expect(timing.ended - handedOut >= .seconds(16))
    }

    @Test func unknownAndRepeatedResultsAreRefusedAsAWSRefusesThem() async throws {
        let session = RuntimeSession()
        async let result = session.invoke(Self.invocation("r-1"))
        _ = await Self.nextEvent(session)
        #expect(session.postResponse(requestID: "other", body: ByteBuffer()).status == 400)
        #expect(session.postResponse(requestID: "other", body: ByteBuffer()).body.contains("InvalidRequestID"))
        #expect(
            session.postError(
                requestID: "r-1", body: ByteBuffer(string: "plain text"), errorTypeHeader: "Custom.Type") == .accepted)
        let repeated = session.postResponse(requestID: "r-1", body: ByteBuffer())
        #expect(repeated.status == 403)
        #expect(repeated.body.contains("InvalidStateTransition"))
        let (outcome, _) = await result
        guard case .functionError(let type, let payload) = outcome else {
            Issue.record("expected a function error, got \(outcome)")
            return
        }
        #expect(type == "Custom.Type")
        #expect(String(buffer: payload) == #"{"errorMessage":"plain text","errorType":"Custom.Type"}"#)
    }

    /// A warm instance remembers only its last few finished ids: the latest still get AWS's
    /// "already has its result", one from long ago is an unknown id, and memory stays bounded.
    @Test func onlyTheLatestFinishedIDsAreRemembered() async throws {
        let session = RuntimeSession()
        let count = RuntimeSession.RecentRequestIDs.capacity + 8
        for index in 0..<count {
            async let result = session.invoke(Self.invocation("r-\(index)"))
            _ = await Self.nextEvent(session)
            #expect(session.postResponse(requestID: "r-\(index)", body: ByteBuffer()) == .accepted)
            _ = await result
        }
        let latest = session.postResponse(requestID: "r-\(count - 1)", body: ByteBuffer())
        #expect(latest.body.contains("InvalidStateTransition"))
        let oldestKept = session.postResponse(requestID: "r-8", body: ByteBuffer())
        #expect(oldestKept.body.contains("InvalidStateTransition"))
        let forgotten = session.postResponse(requestID: "r-7", body: ByteBuffer())
        #expect(forgotten.body.contains("InvalidRequestID"))
    }

    @Test func aSecondNextBeforeTheResultIsRefused() async throws {
        let session = RuntimeSession()
        async let result = session.invoke(Self.invocation("r-1"))
        _ = await Self.nextEvent(session)
        guard case .refused = await session.next() else {
            Issue.record("a /next while an invocation is unanswered must be refused")
            return
        }
        _ = session.postResponse(requestID: "r-1", body: ByteBuffer())
        _ = await result
    }

    /// A second `/next` while one is parked is refused and the first keeps its place: it still
    /// gets the next event. Before, the second silently took the first one's place.
    @Test func aSecondParkedNextIsRefusedAndTheFirstKeepsItsPlace() async throws {
        let session = RuntimeSession()
        let first = Mutex<RuntimeSession.NextEvent?>(nil)
        #expect(session.next { event in first.withLock { $0 = event } } != nil)
        #expect(session.hasParkedNext)
        guard case .alreadyWaiting = await session.next() else {
            Issue.record("a second parked /next must be refused")
            return
        }
        async let result = session.invoke(Self.invocation("r-1"))
        while first.withLock({ $0 }) == nil { await Task.yield() }
        guard case .event(let invocation)? = first.withLock({ $0 }) else {
            Issue.record("the first /next must get the event")
            return
        }
        #expect(invocation.requestID == "r-1")
        _ = session.postResponse(requestID: "r-1", body: ByteBuffer())
        _ = await result
    }

    @Test func initErrorFailsTheWaitingInvocationAndIsRefusedAfterInit() async throws {
        let session = RuntimeSession()
        async let result = session.invoke(Self.invocation("r-1"))
        let body = ByteBuffer(string: #"{"errorType":"Config.Missing","errorMessage":"no keys","stackTrace":[]}"#)
        #expect(session.postInitError(body: body, errorTypeHeader: "Ignored.WhenTheBodySaysIt") == .accepted)
        let (outcome, _) = await result
        #expect(outcome == .initError(errorType: "Config.Missing", payload: body))

        let later = RuntimeSession()
        async let pending = later.invoke(Self.invocation("r-2"))
        _ = await Self.nextEvent(later)
        #expect(later.postInitError(body: body, errorTypeHeader: nil).status == 403)
        _ = later.postResponse(requestID: "r-2", body: ByteBuffer())
        _ = await pending
    }

    @Test func endingReleasesAParkedNextAndEveryWaiter() async throws {
        let session = RuntimeSession()
        async let parked = session.next()
        // The invocation is queued behind nothing: ending must release both sides.
        async let first = session.invoke(Self.invocation("r-1"))
        let handed = await parked
        guard case .event = handed else {
            Issue.record("the parked /next should get the event")
            return
        }
        async let second = session.invoke(Self.invocation("r-2"))
        let exit = ChildProcess.Termination(reason: .exited(3), maxResidentBytes: 0)
        session.end(.exited(exit))
        #expect(await first.0 == .exited(exit))
        #expect(await second.0 == .exited(exit))
        guard case .ended = await session.next() else {
            Issue.record("after the end, /next must tell the runtime to stop")
            return
        }
        #expect(await session.invoke(Self.invocation("r-3")).0 == .exited(exit))
    }

    @Test func overHTTPTheHeadersAreAWSsAndAnOversizedResponseIs413() async throws {
        let session = RuntimeSession()
        let server = try await RuntimeAPIServer.start(session: session)
        let base = "http://\(server.address)/2018-06-01/runtime"
        let before = Int64(Date().timeIntervalSince1970 * 1000)
        async let result = session.invoke(
            Invocation(
                requestID: "r-http", payload: ByteBuffer(string: #"{"hello":1}"#), invokedFunctionARN: "arn:x",
                timeout: .seconds(30), traceID: "Root=1-abc", clientContext: nil, cognitoIdentity: "{}"
            )
        )
        let (body, next) = try await URLSession.shared.data(from: URL(string: "\(base)/invocation/next")!)
        let response = try #require(next as? HTTPURLResponse)
        #expect(response.statusCode == 200)
        #expect(String(decoding: body, as: UTF8.self) == #"{"hello":1}"#)
        #expect(response.value(forHTTPHeaderField: "Lambda-Runtime-Aws-Request-Id") == "r-http")
        #expect(response.value(forHTTPHeaderField: "Lambda-Runtime-Invoked-Function-Arn") == "arn:x")
        #expect(response.value(forHTTPHeaderField: "Lambda-Runtime-Trace-Id") == "Root=1-abc")
        #expect(response.value(forHTTPHeaderField: "Lambda-Runtime-Cognito-Identity") == "{}")
        #expect(response.value(forHTTPHeaderField: "Lambda-Runtime-Client-Context") == nil)
        let deadline = try #require(
            response.value(forHTTPHeaderField: "Lambda-Runtime-Deadline-Ms").flatMap(Int64.init))
        // Handed out between `before` and now, with its 30 s (1 ms either way for rounding): a
        // bound that holds however slowly this machine runs the test.
        let after = Int64(Date().timeIntervalSince1970 * 1000)
        #expect(deadline >= before + 30_000 - 1 && deadline <= after + 30_000 + 1)

        var post = URLRequest(url: URL(string: "\(base)/invocation/r-http/response")!)
        post.httpMethod = "POST"
        post.httpBody = Data(repeating: UInt8(ascii: "x"), count: 6 * 1024 * 1024 + 101)
        let (tooLargeBody, tooLarge) = try await URLSession.shared.data(for: post)
        #expect((tooLarge as? HTTPURLResponse)?.statusCode == 413)
        #expect(String(decoding: tooLargeBody, as: UTF8.self).contains("RequestEntityTooLarge"))
        #expect(await result.0 == .responseTooLarge)

        var unknown = URLRequest(url: URL(string: "\(base)/invocation/nope/response")!)
        unknown.httpMethod = "POST"
        unknown.httpBody = Data("{}".utf8)
        let (_, unknownResponse) = try await URLSession.shared.data(for: unknown)
        #expect((unknownResponse as? HTTPURLResponse)?.statusCode == 400)

        session.end(.cancelled)
        await server.stop()
    }
}
