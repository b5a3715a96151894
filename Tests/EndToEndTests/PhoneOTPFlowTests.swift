import Emulator
import Foundation
import GatehouseJSON
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Sign-in by phone code through `start-api` and the real binaries: request, read the text in
/// the outbox, verify, use the tokens.
@Suite(.serialized)
struct PhoneOTPFlowTests {
    let cli = GatehouseCLI()

    func withAPI(_ body: (LocalAPI) async throws -> Void) async throws {
        try await LocalAPI.with(cli: cli, body)
    }

    func post(
        _ api: LocalAPI, _ path: String, _ body: String
    ) async throws -> (
        status: Int, headers: [(String, String)], body: [UInt8]
    ) {
        try await api.request("POST", path, headers: [("Content-Type", "application/json")], body: Array(body.utf8))
    }

    /// The code of the last text to `number`, from `gatehouse outbox`.
    func lastCode(_ number: String) async throws -> String {
        let run = try await cli.run(["outbox", "--json", "--to", number])
        let last = try #require(run.stdoutText.split(separator: "\n").last)
        return try #require(try JSONValue(parsing: Array(last.utf8))["secret"]?.stringValue)
    }

    @Test func requestVerifyAndUseTheTokens() async throws {
        try await withAPI { api in
            let requested = try await post(
                api, "/auth/otp/request", #"{"phoneNumber":"(415) 555-0100","countryCode":"US"}"#)
            #expect(requested.status == 200)
            #expect(
                try JSONValue(parsing: requested.body)
                    == ["success": true, "status": "pending", "message": "Verification code sent"])
            let code = try await lastCode("+14155550100")
            let announced = try await eventually(10) { api.log.contains("✆ +14155550100: \(code)") }
            #expect(announced)

            let verified = try await post(
                api, "/auth/otp/verify", #"{"phoneNumber":"+14155550100","code":"\#(code)","name":"Ada"}"#)
            #expect(verified.status == 200, "\(String(decoding: verified.body, as: UTF8.self))")
            let answer = try JSONValue(parsing: verified.body)
            #expect(answer["success"] == true)
            #expect(answer["isNewUser"] == true)
            #expect(answer["user"]?["phoneNumber"] == "+14155550100")
            #expect(answer["user"]?["name"] == "Ada")
            #expect(answer["tokens"]?["expiresIn"]?.numberValue.map { $0 > 0 } == true)
            let token = try #require(answer["tokens"]?["accessToken"]?.stringValue)
            let profile = try await api.request("GET", "/users/me", headers: [("Authorization", "Bearer \(token)")])
            #expect(profile.status == 200)
            #expect(try JSONValue(parsing: profile.body)["phone"] == "+14155550100")
            let refreshed = try await post(
                api, "/auth/refresh",
                #"{"refreshToken":"\#(try #require(answer["tokens"]?["refreshToken"]?.stringValue))"}"#)
            #expect(refreshed.status == 200)

            // The code worked once; the next sign-in is not a new user.
            #expect(
                try await post(api, "/auth/otp/verify", #"{"phoneNumber":"+14155550100","code":"\#(code)"}"#).status
                    == 401)
            _ = try await post(api, "/auth/otp/request", #"{"phoneNumber":"+14155550100"}"#)
            let again = try await post(
                api, "/auth/otp/verify",
                #"{"phoneNumber":"+14155550100","code":"\#(try await lastCode("+14155550100"))"}"#)
            #expect(try JSONValue(parsing: again.body)["isNewUser"] == false)
        }
    }

    /// A resend replaces the code; five wrong codes lock the number, and then even the right
    /// code gets the same 401, with Retry-After.
    @Test func aResendReplacesTheCodeAndWrongCodesLockTheNumber() async throws {
        try await withAPI { api in
            _ = try await post(api, "/auth/otp/request", #"{"phoneNumber":"+447911123456"}"#)
            let first = try await lastCode("+447911123456")
            _ = try await post(api, "/auth/otp/request", #"{"phoneNumber":"07911 123456","countryCode":"GB"}"#)
            let code = try await lastCode("+447911123456")
            let wrong = code == "000000" ? "000001" : "000000"
            if first != code {
                #expect(
                    try await post(api, "/auth/otp/verify", #"{"phoneNumber":"+447911123456","code":"\#(first)"}"#)
                        .status == 401)
            }
            var refusals: [(status: Int, headers: [(String, String)], body: [UInt8])] = []
            for _ in 0..<(first != code ? 4 : 5) {
                refusals.append(
                    try await post(api, "/auth/otp/verify", #"{"phoneNumber":"+447911123456","code":"\#(wrong)"}"#))
            }
            #expect(refusals.allSatisfy { $0.status == 401 })
            #expect(refusals.allSatisfy { answer in !answer.headers.contains { $0.0 == "retry-after" } })
            let locked = try await post(api, "/auth/otp/verify", #"{"phoneNumber":"+447911123456","code":"\#(code)"}"#)
            #expect(locked.status == 401)
            #expect(locked.headers.contains { $0 == ("retry-after", "3600") })
            let lockedAnswer = try JSONValue(parsing: locked.body)
            let wrongAnswer = try JSONValue(parsing: try #require(refusals.last).body)
            #expect(lockedAnswer["error"] == wrongAnswer["error"])
            #expect(lockedAnswer["message"] == wrongAnswer["message"])
        }
    }

    @Test func theFourthRequestInAnHourIsRefused() async throws {
        try await withAPI { api in
            for _ in 0..<3 {
                #expect(try await post(api, "/auth/otp/request", #"{"phoneNumber":"+33612345678"}"#).status == 200)
            }
            let refused = try await post(api, "/auth/otp/request", #"{"phoneNumber":"+33612345678"}"#)
            #expect(refused.status == 429)
            #expect(try JSONValue(parsing: refused.body)["retryAfter"]?.numberValue.map { $0 > 0 } == true)
        }
    }

    @Test func badRequestsNameTheFieldAndTextNothing() async throws {
        try await withAPI { api in
            let cases: [(String, String, String)] = [
                ("/auth/otp/request", #"{}"#, "phoneNumber"),
                ("/auth/otp/request", #"{"phoneNumber":"555-0100"}"#, "phoneNumber"),
                ("/auth/otp/request", #"{"phoneNumber":"555-0100","countryCode":"ZZ"}"#, "phoneNumber"),
                ("/auth/otp/request", #"{"phoneNumber":"+14155550100","app":"nope"}"#, "app"),
                ("/auth/otp/verify", #"{"phoneNumber":"+14155550100","code":"12345"}"#, "code"),
                ("/auth/otp/verify", #"{"phoneNumber":"+14155550100","code":12}"#, "code"),
                ("/auth/otp/verify", #"{"code":"123456"}"#, "phoneNumber"),
            ]
            for (path, body, named) in cases {
                let answer = try await post(api, path, body)
                #expect(answer.status == 400, "\(body)")
                let message = try JSONValue(parsing: answer.body)["message"]?.stringValue ?? ""
                #expect(message.contains(named) || message.contains("app"), "\(message)")
            }
            #expect(try await cli.run(["outbox", "--json"]).stdoutText.isEmpty)
        }
    }

    /// No code reaches a log but start-api's delivery notice.
    @Test func codesAppearOnlyInTheDeliveryNotice() async throws {
        try await withAPI { api in
            _ = try await post(api, "/auth/otp/request", #"{"phoneNumber":"+14155550199"}"#)
            let code = try await lastCode("+14155550199")
            _ = try await post(api, "/auth/otp/verify", #"{"phoneNumber":"+14155550199","code":"\#(code)"}"#)
            _ = try await eventually(10) {
                api.log.contains("✆ +14155550199") && api.log.contains("POST /auth/otp/verify")
            }
            // The code as a whole number: request ids and times may hold the same digits by chance.
            let lines = api.log.split(separator: "\n").filter { line in
                line.split(whereSeparator: { !$0.isNumber }).contains { $0 == code }
            }
            #expect(lines.count == 1)
            #expect(lines.allSatisfy { $0.hasPrefix("✆ +14155550199: ") })
        }
    }
}

/// The limits when requests race across function instances (separate processes on one store).
@Suite(.serialized)
struct SignInRaceTests {
    let cli = GatehouseCLI()

    @Test func fiftyParallelSendsDeliverFiveAndFiftyWrongCodesLockAtFive() async throws {
        let api = try await LocalAPI(template: GatehouseCLI.projectTemplate, cli: cli)
        defer { api.process.kill(SIGINT) }
        let sends = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<50 {
                group.addTask {
                    try await api.request(
                        "POST", "/auth/send-magic-link", headers: [("Content-Type", "application/json")],
                        body: Array(#"{"email":"race@example.com","app":"demo"}"#.utf8)
                    ).status
                }
            }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(sends.filter { $0 == 200 }.count == 5)
        #expect(sends.filter { $0 == 429 }.count == 45)
        let outbox = try await cli.run(["outbox", "--json", "--to", "race@example.com"])
        #expect(outbox.stdoutText.split(separator: "\n").count == 5)

        _ = try await api.request(
            "POST", "/auth/otp/request", headers: [("Content-Type", "application/json")],
            body: Array(#"{"phoneNumber":"+14155550123"}"#.utf8))
        let texts = try await cli.run(["outbox", "--json", "--to", "+14155550123"]).stdoutText
        let last = try #require(texts.split(separator: "\n").last)
        let code = try #require(try JSONValue(parsing: Array(last.utf8))["secret"]?.stringValue)
        let wrong = code == "000000" ? "000001" : "000000"
        let tries = try await withThrowingTaskGroup(of: (Int, Bool).self) { group in
            for _ in 0..<50 {
                group.addTask {
                    let answer = try await api.request(
                        "POST", "/auth/otp/verify", headers: [("Content-Type", "application/json")],
                        body: Array(#"{"phoneNumber":"+14155550123","code":"\#(wrong)"}"#.utf8))
                    return (answer.status, answer.headers.contains { $0.0 == "retry-after" })
                }
            }
            return try await group.reduce(into: [(Int, Bool)]()) { $0.append($1) }
        }
        // All from one source: 30 got past its limit (`CodeGuesses.perSourceIPLimit`), the other 20
        // were 429s. Of the 30, five codes were compared (plain 401s); 25 found the number locked.
        #expect(tries.filter { $0 == (401, false) }.count == 5)
        #expect(tries.filter { $0 == (401, true) }.count == 25)
        #expect(tries.filter { $0 == (429, true) }.count == 20)
        _ = await api.stop()
    }
}
