import Foundation
import Hummingbird
import NIOCore
import Synchronization
import TestServers
import Testing

/// `/auth/callback` against a provider whose token endpoint stalls or answers with garbage:
/// the callback ends within the exchange's deadline and sends the browser back to the app with
/// `error=oauth_failed`, the details only in the log.
@Suite(.serialized)
struct MisbehavingProviderTests {
    let cli = GatehouseCLI()

    /// How the test's token endpoint answers.
    enum Mode: Sendable {
        case stall, notJSON, serverError, noIDToken, forgedIDToken
    }

    @Test func aStalledOrGarbledTokenEndpointEndsInACleanErrorRedirect() async throws {
        let mode = Mutex<Mode>(.stall)
        let router = Router()
        router.post("token") { _, _ -> Response in
            switch mode.withLock({ $0 }) {
            case .stall:
                try await Task.sleep(for: .seconds(9))
                return Self.answer(.ok, #"{"id_token":"late"}"#)
            case .notJSON: return Self.answer(.ok, "<html>surprise</html>")
            case .serverError: return Self.answer(.internalServerError, "<html>down</html>")
            case .noIDToken: return Self.answer(.ok, #"{"access_token":"x","token_type":"Bearer"}"#)
            case .forgedIDToken: return Self.answer(.ok, #"{"id_token":"eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0."}"#)
            }
        }
        let server = try await LoopbackHTTPServer.start(router: router)
        let variables = ["OAuthCallback": ["OIDC_TOKEN_URL": "http://127.0.0.1:\(server.port)/token"]]
        try await LocalAPI.with(cli: cli, variables: variables) { api in
            // One unmeasured round first: what is timed is the exchange's deadline, not the cold
            // starts of Authorize and OAuthCallback on a machine busy with the rest of the suite.
            mode.withLock { $0 = .serverError }
            _ = try await callback(api)
            for next in [Mode.notJSON, .serverError, .noIDToken, .forgedIDToken, .stall] {
                mode.withLock { $0 = next }
                let started = ContinuousClock.now
                let (status, location) = try await callback(api)
                let elapsed = ContinuousClock.now - started
                #expect(status == 302, "\(next)")
                #expect(location == "http://127.0.0.1:\(api.port)/app/auth/callback?error=oauth_failed", "\(next)")
                // The exchange's deadline is 5 s; the stalled endpoint would answer at 9 s.
                #expect(elapsed < .seconds(8), "\(next) took \(elapsed)")
            }
            #expect(try await eventually { api.log.contains("token_exchange_failed") })
            #expect(!api.log.contains("surprise"))
        }
        await server.stop()
    }

    /// A flow begun at `/auth` and its callback with a made-up provider code.
    private func callback(_ api: LocalAPI) async throws -> (Int, String?) {
        let begun = try await api.request("GET", "/auth?app=demo&provider=google")
        let cookies = begun.headers.filter { $0.0 == "set-cookie" }.map { String($0.1.split(separator: ";")[0]) }
        let location = try #require(begun.headers.first { $0.0 == "location" }.flatMap { URLComponents(string: $0.1) })
        let state = try #require(location.queryItems?.first { $0.name == "state" }?.value)
        let answer = try await api.request(
            "GET", "/auth/callback?code=provider-code&state=\(state)",
            headers: [("Cookie", cookies.joined(separator: "; "))])
        return (answer.status, answer.headers.first { $0.0 == "location" }?.1)
    }

    private static func answer(_ status: HTTPResponse.Status, _ body: String) -> Response {
        Response(status: status, body: .init(byteBuffer: ByteBuffer(string: body)))
    }
}
