import TestServers
import Testing

@testable import Emulator

/// start-api's two servers (the API's listener and each instance's Runtime API) stop by closing
/// their listening socket; connections already accepted finish on their own. Neither hands
/// connections over through an async sequence, so neither has the cancelled-accept trap of
/// the Hummingbird test servers (TestServerShutdownTests), and these rounds show it: clients
/// that reset mid-head and mid-body, and while the server stops, never end the process.
struct ServerShutdownTests {
    static let rounds = 20
    static let request = "GET /a HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"

    @Test(.timeLimit(.minutes(2)))
    func theAPIListenerStopsWhateverItsClientsDo() async throws {
        for round in 0..<Self.rounds {
            let listener = try await APIListener.start(host: "127.0.0.1", port: 0)
            #expect(await RudeClient.abort(port: listener.port, sending: RudeClient.partialBody, count: 10) == 10)
            #expect(await RudeClient.abort(port: listener.port, sending: Array("GET /a HT".utf8), count: 5) == 5)
            // Not yet attached to a gateway: the answer is 503, and the listener still answers.
            let answer = await RudeClient.exchange(port: listener.port, Self.request)
            #expect(answer.hasPrefix("HTTP/1.1 503 "), "round \(round): \(answer)")
            let fire = await RudeClient.stopUnderFire(port: listener.port, sending: RudeClient.partialBody) {
                await listener.stop()
            }
            #expect(fire.isClean, "round \(round): \(fire)")
        }
    }

    @Test(.timeLimit(.minutes(2)))
    func theRuntimeAPIServerStopsWhateverItsClientsDo() async throws {
        for round in 0..<Self.rounds {
            let session = RuntimeSession()
            let server = try await RuntimeAPIServer.start(session: session)
            let port = try #require(server.address.split(separator: ":").last.flatMap { Int($0) })
            let response = Array(
                "POST /2018-06-01/runtime/invocation/x/response HTTP/1.1\r\nHost: x\r\nContent-Length: 900\r\n\r\n{"
                    .utf8)
            #expect(await RudeClient.abort(port: port, sending: response, count: 10) == 10)
            #expect(await RudeClient.abort(port: port, sending: Array("GET /2018-06-01/runt".utf8), count: 5) == 5)
            let answer = await RudeClient.exchange(port: port, Self.request)
            #expect(answer.hasPrefix("HTTP/1.1 404 "), "round \(round): \(answer)")
            let fire = await RudeClient.stopUnderFire(port: port, sending: RudeClient.partialBody) {
                await server.stop()
            }
            #expect(fire.isClean, "round \(round): \(fire)")
        }
    }
}
