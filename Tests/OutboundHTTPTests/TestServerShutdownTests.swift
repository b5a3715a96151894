import OutboundHTTP
import TestServers
import Testing

/// The tests' own servers (Hummingbird, TLS or not) stop without ever ending the test process:
/// clients that reset mid-handshake, mid-body and while the server stops, round after round.
/// Stopped by cancelling their serving task, as they once were, a connection caught in the
/// accept sequence at that moment killed the whole process (`Deinited NIOAsyncWriter without
/// calling finish()`); these rounds did that within a few of them.
struct TestServerShutdownTests {
    static let rounds = 20

    @Test(.timeLimit(.minutes(3)))
    func theHTTPSServerStopsWhateverItsClientsDo() async throws {
        let client = try OutboundHTTPClientTests.client(timeout: .seconds(20))
        for round in 0..<Self.rounds {
            let server = try await HTTPSTestServer.start()
            #expect(await RudeClient.abort(port: server.port, sending: RudeClient.partialClientHello, count: 10) == 10)
            #expect(await RudeClient.abort(port: server.port, sending: [], count: 5) == 5)
            let answer = try await offPool { try client.send(OutboundRequest(url: server.url("/ok"))) }
            #expect(answer.status == 200, "round \(round)")
            let fire = await RudeClient.stopUnderFire(port: server.port, sending: RudeClient.partialClientHello) {
                await server.stop()
            }
            #expect(fire.isClean, "round \(round): \(fire)")
        }
    }

    @Test(.timeLimit(.minutes(3)))
    func thePlainServerStopsWhateverItsClientsDo() async throws {
        for round in 0..<Self.rounds {
            let server = try await RecordingServer.start()
            #expect(await RudeClient.abort(port: server.port, sending: RudeClient.partialBody, count: 10) == 10)
            let answer = await RudeClient.exchange(
                port: server.port, "GET /x HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            #expect(answer.hasPrefix("HTTP/1.1 200 OK\r\n"), "round \(round): \(answer)")
            let fire = await RudeClient.stopUnderFire(port: server.port, sending: RudeClient.partialBody) {
                await server.stop()
            }
            #expect(fire.isClean, "round \(round): \(fire)")
        }
    }

    /// A server whose request is still in flight (it never answers on its own) stops too.
    @Test(.timeLimit(.minutes(1)))
    func aRequestInFlightDoesNotHoldTheStop() async throws {
        let server = try await HTTPSTestServer.start()
        let client = try OutboundHTTPClientTests.client(timeout: .seconds(30))
        let stalled = Task { try? await offPool { try client.send(OutboundRequest(url: server.url("/stall"))) } }
        for _ in 0..<1000 where server.requests == 0 { try await Task.sleep(for: .milliseconds(10)) }
        try #require(server.requests == 1)
        await server.stop()
        #expect(await RudeClient.accepts(port: server.port) == false)
        _ = await stalled.value
    }
}
