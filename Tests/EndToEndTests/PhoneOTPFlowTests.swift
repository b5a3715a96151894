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

    /// A resend while the code is live texts the same code; five wrong codes from a stranger
    /// kill that code (even the right one is refused after them, with no `Retry-After`), but
    /// never lock the number: the owner's next request texts a fresh code that signs in.
    /// Before, the wrong codes locked the number for an hour, and the owner's fresh code got
    /// 401 with `Retry-After: 3600`.
    @Test func aStrangersWrongCodesNeverLockTheOwnerOut() async throws {
        try await withAPI { api in
            let number = "+14155550142"
            _ = try await post(api, "/auth/otp/request", #"{"phoneNumber":"\#(number)"}"#)
            let first = try await lastCode(number)
            _ = try await post(api, "/auth/otp/request", #"{"phoneNumber":"(415) 555-0142","countryCode":"US"}"#)
            #expect(try await lastCode(number) == first)
            let wrong = first == "000000" ? "000001" : "000000"
            var refusals: [(status: Int, headers: [(String, String)], body: [UInt8])] = []
            for _ in 0..<6 {
                refusals.append(
                    try await post(api, "/auth/otp/verify", #"{"phoneNumber":"\#(number)","code":"\#(wrong)"}"#))
            }
            #expect(refusals.allSatisfy { $0.status == 401 })
            #expect(refusals.allSatisfy { answer in !answer.headers.contains { $0.0 == "retry-after" } })
            let dead = try await post(api, "/auth/otp/verify", #"{"phoneNumber":"\#(number)","code":"\#(first)"}"#)
            #expect(dead.status == 401)
            #expect(try JSONValue(parsing: dead.body)["error"] == JSONValue(parsing: refusals[0].body)["error"])

            #expect(try await post(api, "/auth/otp/request", #"{"phoneNumber":"\#(number)"}"#).status == 200)
            let fresh = try await lastCode(number)
            let signedIn = try await post(api, "/auth/otp/verify", #"{"phoneNumber":"\#(number)","code":"\#(fresh)"}"#)
            #expect(signedIn.status == 200, "\(String(decoding: signedIn.body, as: UTF8.self))")
        }
    }

    @Test func theFourthRequestInAnHourFromOneSourceIsRefused() async throws {
        try await withAPI { api in
            for _ in 0..<3 {
                #expect(try await post(api, "/auth/otp/request", #"{"phoneNumber":"+14155550123"}"#).status == 200)
            }
            let refused = try await post(api, "/auth/otp/request", #"{"phoneNumber":"+14155550123"}"#)
            #expect(refused.status == 429)
            #expect(try JSONValue(parsing: refused.body)["retryAfter"]?.numberValue.map { $0 > 0 } == true)
        }
    }

    /// The review's premium range (`+88216…`) and numbers outside the allowed countries (France,
    /// by default) are refused with a 400 naming the field, and nothing is texted.
    @Test func premiumRangesAndOtherCountriesAreNeverTexted() async throws {
        try await withAPI { api in
            for number in ["+8821612345678", "+33612345678", "+19005550100"] {
                let refused = try await post(api, "/auth/otp/request", #"{"phoneNumber":"\#(number)"}"#)
                #expect(refused.status == 400, "\(number)")
                #expect(try JSONValue(parsing: refused.body)["message"]?.stringValue?.hasPrefix("phoneNumber") == true)
            }
            #expect(try await cli.run(["outbox", "--json"]).stdoutText.isEmpty)
        }
    }

    /// Past the app's hourly budget of texts (2 here), requests for any number are refused with
    /// 429 `send_budget_spent`, nothing is sent, and the request metric names the reason, which
    /// the template's `SendBudgetAlarm` watches.
    @Test func pastTheHourlyBudgetNothingIsSent() async throws {
        let budget = ["SMS_HOURLY_BUDGET_PER_APP": "2"]
        try await LocalAPI.with(cli: cli, variables: ["OtpRequest": budget]) { api in
            for index in 0..<2 {
                #expect(
                    try await post(api, "/auth/otp/request", #"{"phoneNumber":"+1415555020\#(index)"}"#).status == 200)
            }
            let refused = try await post(api, "/auth/otp/request", #"{"phoneNumber":"+16505550100"}"#)
            #expect(refused.status == 429)
            #expect(try JSONValue(parsing: refused.body)["error"] == "send_budget_spent")
            #expect(try await cli.run(["outbox", "--json"]).stdoutText.split(separator: "\n").count == 2)
            let metric = try await eventually(10) { api.log.contains(#""Reason":"send_budget_spent""#) }
            #expect(metric)
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

    @Test func fiftyParallelSendsDeliverFiveAndFiftyWrongCodesAreBounded() async throws {
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
        // were 429s. The 30 are plain 401s: five were compared, and the code was dead for the rest
        // (counted before any comparison); nothing locks the number, so none says when to retry.
        #expect(tries.filter { $0 == (401, false) }.count == 30)
        #expect(tries.filter { $0 == (429, true) }.count == 20)
        _ = await api.stop()
    }
}
