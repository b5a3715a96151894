import Emulator
import GatehouseJSON
import Logging
import NIOCore
import Testing

@testable import LambdaRuntime

/// The socket client once against the emulator's own Runtime API server: the loop takes an
/// event, answers one and fails another, and the emulator sees both as Lambda would.
struct RuntimeAPIClientEmulatorTests {
    @Test func theClientSpeaksTheEmulatorsRuntimeAPI() async throws {
        let session = RuntimeSession()
        let server = try await RuntimeAPIServer.start(session: session)
        let endpoint = try #require(RuntimeAPIEndpoint(server.address))
        let loop = RuntimeLoop(
            endpoint: endpoint, logger: Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }, maxInvocations: 2)
        let running = Task {
            try await loop.run {
                ClosureHandler { event, context in
                    guard String(buffer: event) != "fail" else { throw InvocationError(type: "Told", message: "so") }
                    return ByteBuffer(string: #"{"id":"\#(context.requestID)"}"#)
                }
            }
        }
        func invocation(_ id: String, _ body: String) -> Invocation {
            Invocation(
                requestID: id, payload: ByteBuffer(string: body), invokedFunctionARN: "arn:aws:lambda:r:1:function:F",
                timeout: .seconds(10))
        }
        let (answered, _) = await session.invoke(invocation("r-1", "ok"))
        let (failed, _) = await session.invoke(invocation("r-2", "fail"))
        #expect(try await running.value == .invocationLimitReached)
        session.end(.cancelled)
        await server.stop()
        #expect(answered == .response(ByteBuffer(string: #"{"id":"r-1"}"#)))
        guard case .functionError(let type, let payload) = failed else {
            Issue.record("expected a function error, got \(failed)")
            return
        }
        #expect(type == "Told")
        #expect(try JSONValue(parsing: payload.readableBytesView)["errorMessage"] == "so")
    }
}
