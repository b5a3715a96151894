import Foundation
import GatehouseJSON
import Testing

/// Races through the real binaries: each attempt is its own `gatehouse invoke`, so its own
/// function process with its own connection to the store file, as concurrent Lambda
/// instances would be.
struct InvokeRaceTests {
    let sessions = InvokeSessionTests()

    /// Runs `count` invocations of `function` with `body` at once; their statuses and bodies.
    func race(_ count: Int, _ function: String, _ path: String, body: String) async throws -> [(Int, JSONValue)] {
        let sessions = self.sessions
        return try await withThrowingTaskGroup(of: (Int, JSONValue).self) { group in
            for _ in 0..<count {
                group.addTask {
                    let answer = try await sessions.invoke(function, path, body: body)
                    return (answer.status, answer.body)
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
    }

    @Test func fiftyProcessesExchangingOneCodeStartOneSession() async throws {
        let code = try await sessions.mint()
        let answers = try await race(50, "Exchange", "/auth/exchange", body: #"{"code":"\#(code)","app":"demo"}"#)
        #expect(answers.count == 50)
        #expect(answers.filter { $0.0 == 200 }.count == 1)
        for (status, body) in answers where status != 200 {
            #expect(status == 401)
            #expect(body["error"] == "invalid_code")
        }
        #expect(try await sessions.sessionCount() == 1)
    }

    /// Twenty processes refreshing one token: no crash, each answer a success or a refusal, and
    /// at most one session (family) left going. Ten of them are over the user's limit of ten
    /// refreshes a minute, refused with 429 before the token is used.
    @Test func twentyProcessesRefreshingOneTokenLeaveAtMostOneFamily() async throws {
        let exchanged = try await sessions.invoke(
            "Exchange", "/auth/exchange", body: #"{"code":"\#(try await sessions.mint())","app":"demo"}"#)
        let token = try #require(exchanged.body["refreshToken"]?.stringValue)
        let answers = try await race(20, "Refresh", "/auth/refresh", body: #"{"refreshToken":"\#(token)"}"#)
        #expect(answers.count == 20)
        for (status, body) in answers where status != 200 {
            #expect(status == 401 || status == 429)
            #expect(
                ["refresh_token_reused", "invalid_refresh_token", "rate_limited"].contains(
                    body["error"]?.stringValue ?? ""))
        }
        // Ten, unless the processes' starts straddle a minute's window (then fewer).
        #expect(answers.filter { $0.0 == 429 }.count <= 10)
        let successes = answers.filter { $0.0 == 200 }
        #expect(successes.count <= 2)  // the rotation, and at most one grace use
        #expect(try await sessions.sessionCount() <= 1)
        // The tokens the successes handed out: at most one of them carries on, none if the
        // session ended.
        let families = try await sessions.sessionCount()
        var carriedOn = 0
        for (_, body) in successes {
            let next = try await sessions.invoke(
                "Refresh", "/auth/refresh", body: #"{"refreshToken":"\#(body["refreshToken"]?.stringValue ?? "")"}"#)
            if next.status == 200 { carriedOn += 1 }
        }
        #expect(carriedOn <= families)
    }
}
