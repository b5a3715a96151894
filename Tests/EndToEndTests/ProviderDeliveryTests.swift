import Emulator
import Foundation
import GatehouseJSON
import TestServers
import Testing

/// Sign-in messages through the providers that are not AWS, through `start-api` and the real
/// binaries: phone codes through Twilio Verify (the local stand-in, `TwilioVerifyStandIn`,
/// answering as Twilio's API reference shows) and a magic link through Resend (a local server
/// that records the request).
@Suite(.serialized)
struct ProviderDeliveryTests {
    let cli = GatehouseCLI()

    func post(
        _ api: LocalAPI, _ path: String, _ body: String
    ) async throws -> (status: Int, headers: [(String, String)], body: [UInt8]) {
        try await api.request("POST", path, headers: [("Content-Type", "application/json")], body: Array(body.utf8))
    }

    func withTwilio(_ body: (LocalAPI, TwilioVerifyStandIn) async throws -> Void) async throws {
        let standIn = try await TwilioVerifyStandIn.start()
        defer { Task { await standIn.stop() } }
        try await LocalAPI.with(
            cli: cli, variables: ["OtpRequest": standIn.environment, "OtpVerify": standIn.environment]
        ) { api in try await body(api, standIn) }
    }

    @Test func aPhoneSignsInThroughTwilioVerify() async throws {
        try await withTwilio { api, twilio in
            let number = "+1415555\(Int.random(in: 1000...9999))"
            let requested = try await post(api, "/auth/otp/request", #"{"phoneNumber":"\#(number)"}"#)
            #expect(requested.status == 200, "\(String(decoding: requested.body, as: UTF8.self))")
            let code = try #require(twilio.code(for: number))
            #expect(twilio.channel(for: number) == "sms")
            #expect(
                try await cli.run(["outbox", "--json", "--to", number]).stdoutText.isEmpty, "nothing in the outbox")

            let wrong = code == "999999" ? "999998" : "999999"
            let refused = try await post(api, "/auth/otp/verify", #"{"phoneNumber":"\#(number)","code":"\#(wrong)"}"#)
            #expect(refused.status == 401)
            #expect(try JSONValue(parsing: refused.body)["error"] == "invalid_code")
            let verified = try await post(
                api, "/auth/otp/verify", #"{"phoneNumber":"\#(number)","code":"\#(code)","name":"Ada"}"#)
            #expect(verified.status == 200, "\(String(decoding: verified.body, as: UTF8.self))")
            let answer = try JSONValue(parsing: verified.body)
            #expect(answer["user"]?["phoneNumber"] == .string(number))
            let token = try #require(answer["tokens"]?["accessToken"]?.stringValue)
            let profile = try await api.request("GET", "/users/me", headers: [("Authorization", "Bearer \(token)")])
            #expect(profile.status == 200)
            // Twilio approved it once: the same code again is Twilio's 404, a refused code.
            let again = try await post(api, "/auth/otp/verify", #"{"phoneNumber":"\#(number)","code":"\#(code)"}"#)
            #expect(again.status == 401)

            // A voice call when asked; an expired verification (Twilio's 404) is a refused code.
            let called = try await post(api, "/auth/otp/request", #"{"phoneNumber":"\#(number)","channel":"call"}"#)
            #expect(called.status == 200)
            #expect(twilio.channel(for: number) == "call")
            let expiring = try #require(twilio.code(for: number))
            twilio.expire(number)
            let expired = try await post(
                api, "/auth/otp/verify", #"{"phoneNumber":"\#(number)","code":"\#(expiring)"}"#)
            #expect(expired.status == 401)
            let fax = try await post(api, "/auth/otp/request", #"{"phoneNumber":"\#(number)","channel":"fax"}"#)
            #expect(fax.status == 400)

            for secret in [code, expiring, TwilioVerifyStandIn.authToken] {
                #expect(!api.log.contains(secret), "no code or token in a log line")
            }
        }
    }

    /// Gatehouse's count of the code's tries stays in front: after 5 wrong codes the code is
    /// dead, and the 6th try is refused without Twilio being asked, even with the right code
    /// (a plain wrong-code answer: nothing locks the number).
    @Test func theCodesTriesStayInFrontOfTwilio() async throws {
        try await withTwilio { api, twilio in
            let number = "+1415555\(Int.random(in: 1000...9999))"
            #expect(try await post(api, "/auth/otp/request", #"{"phoneNumber":"\#(number)"}"#).status == 200)
            let code = try #require(twilio.code(for: number))
            let wrong = code == "999999" ? "999998" : "999999"
            for _ in 0..<5 {
                let refused = try await post(
                    api, "/auth/otp/verify", #"{"phoneNumber":"\#(number)","code":"\#(wrong)"}"#)
                #expect(refused.status == 401)
            }
            let dead = try await post(api, "/auth/otp/verify", #"{"phoneNumber":"\#(number)","code":"\#(code)"}"#)
            #expect(dead.status == 401)
            #expect(!dead.headers.contains { $0.0 == "retry-after" })
            let checks = twilio.server.requests.filter { $0.target.hasSuffix("/VerificationCheck") }
            #expect(checks.count == 5)
        }
    }

    /// Request and verify through start-api with Twilio delivery against the stand-in, warm:
    /// every sign-in must succeed; the times are printed for the report, never asserted.
    @Test func tenPhoneSignInsThroughTwilioVerify() async throws {
        try await withTwilio { api, twilio in
            var requests: [Duration] = []
            var verifies: [Duration] = []
            let clock = ContinuousClock()
            for index in 0..<11 {
                // A range each: one source gets 10 fresh codes an hour per range (`PhoneCodes.perPrefix`).
                let number =
                    "+1415\(String(format: "%03d", 200 + index))\(String(format: "%04d", Int.random(in: 0...9999)))"
                var status = 0
                let request = try await clock.measure {
                    status = try await post(api, "/auth/otp/request", #"{"phoneNumber":"\#(number)"}"#).status
                }
                #expect(status == 200)
                let code = try #require(twilio.code(for: number))
                let verify = try await clock.measure {
                    status = try await post(
                        api, "/auth/otp/verify", #"{"phoneNumber":"\#(number)","code":"\#(code)"}"#
                    ).status
                }
                #expect(status == 200)
                // The first of each is a cold start.
                if index > 0 {
                    requests.append(request)
                    verifies.append(verify)
                }
            }
            func milliseconds(_ list: [Duration]) -> String {
                let sorted = list.map {
                    Double($0.components.attoseconds) / 1e15 + Double($0.components.seconds) * 1000
                }
                .sorted()
                return "median \(Int(sorted[sorted.count / 2])) ms, max \(Int(sorted.last ?? 0)) ms"
            }
            print(
                "OTP through start-api with Twilio (stand-in), 10 warm: request \(milliseconds(requests)); verify \(milliseconds(verifies))"
            )
        }
    }

    /// Sign-up is answered before its confirmation mail goes out, as recovery is: with Resend
    /// holding every call, a new address's sign-up is answered while its mail is still in
    /// flight, like a taken address's (which mails nothing). The mail went first before, so a
    /// slow mail service told new addresses from registered ones by the answer's time.
    @Test(.timeLimit(.minutes(1)))
    func signUpIsAnsweredBeforeItsMailGoesOut() async throws {
        let gate = Gate()
        let resend = try await RecordingServer.start(holding: gate) { _ in (200, #"{"id": "1"}"#) }
        defer {
            gate.open()
            Task { await resend.stop() }
        }
        let email = [
            "EMAIL_DELIVERY": "resend", "EMAIL_FROM": "Gatehouse <signin@example.com>", "RESEND_API_KEY": "re_test_1",
            "RESEND_BASE_URL": resend.baseURL,
        ]
        try await LocalAPI.with(cli: cli, variables: ["SupabaseSignup": email]) { api in
            let key = try await SupabaseClientTests.apiKey(cli)
            let address = "held-\(UUID().uuidString.prefix(6))@example.com"
            let signedUp = try await api.request(
                "POST", "/auth/v1/signup", headers: [("apikey", key), ("Content-Type", "application/json")],
                body: Array(#"{"email":"\#(address)","password":"correct horse battery"}"#.utf8))
            #expect(signedUp.status == 200, "\(String(decoding: signedUp.body, as: UTF8.self))")
            // The mail was on its way, held by the stand-in, when the answer came.
            #expect(try await eventually(10) { resend.requests.count == 1 })
            gate.open()
        }
    }

    /// The issue's measurement: with a mail service that takes 150 ms, sign-ups of registered
    /// (imported, confirmed) addresses and of fresh ones, alternately, through start-api. Both
    /// mail after the answer (a link, or a notice to the registered address's owner), so the
    /// times are printed for the report and never asserted; what is asserted is what was mailed.
    /// Before the notice, the request after a fresh sign-up waited for its mail on the function's
    /// one instance, and registered addresses answered in 43–183 ms against 14–20 ms.
    @Test func signUpAnswerTimesWithASlowMailService() async throws {
        let resend = try await RecordingServer.start(latency: .milliseconds(150)) { _ in (200, #"{"id": "1"}"#) }
        defer { Task { await resend.stop() } }
        let run = UUID().uuidString.prefix(6).lowercased()
        let registered = (0..<8).map { "taken-\(run)-\($0)@example.com" }
        let rows = registered.map { address in
            #"{"id":"\#(UUID().uuidString.lowercased())","email":"\#(address)","email_confirmed_at":"2024-07-22 16:54:05+00","created_at":"2024-07-22 16:54:05+00"}"#
        }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("taken-\(run).json")
        try Data("[\(rows.joined(separator: ","))]".utf8).write(to: file)
        #expect(try await cli.run(["users", "import", file.path]).status == 0)
        let email = [
            "EMAIL_DELIVERY": "resend", "EMAIL_FROM": "Gatehouse <signin@example.com>", "RESEND_API_KEY": "re_test_1",
            "RESEND_BASE_URL": resend.baseURL,
        ]
        try await LocalAPI.with(cli: cli, variables: ["SupabaseSignup": email]) { api in
            let key = try await SupabaseClientTests.apiKey(cli)
            var times: (taken: [Double], fresh: [Double]) = ([], [])
            for index in 0..<8 {
                for (taken, address) in [(true, registered[index]), (false, "fresh-\(run)-\(index)@example.com")] {
                    let started = ContinuousClock.now
                    let answer = try await api.request(
                        "POST", "/auth/v1/signup", headers: [("apikey", key), ("Content-Type", "application/json")],
                        body: Array(#"{"email":"\#(address)","password":"correct horse battery"}"#.utf8))
                    let elapsed = (ContinuousClock.now - started) / .milliseconds(1)
                    #expect(answer.status == 200, "\(String(decoding: answer.body, as: UTF8.self))")
                    if taken { times.taken.append(elapsed) } else { times.fresh.append(elapsed) }
                }
            }
            // Both mailed after the answer: fresh addresses their link, registered ones a notice.
            #expect(try await eventually(10) { resend.requests.count == 16 })
            for mail in resend.requests {
                let body = try JSONValue(parsing: mail.body)
                let to = body["to"]?.arrayValue?.first?.stringValue ?? ""
                let notice = body["subject"]?.stringValue?.hasPrefix("Someone signed up") == true
                #expect(notice == to.hasPrefix("taken-"), "\(to)")
            }
            func range(_ values: [Double]) -> String {
                String(
                    format: "%.0f–%.0f ms (median %.0f)", values.min() ?? 0, values.max() ?? 0,
                    values.sorted()[values.count / 2])
            }
            print("sign-up with a 150 ms mail service: registered \(range(times.taken)), fresh \(range(times.fresh))")
        }
    }

    @Test func aLinkGoesOutThroughResend() async throws {
        let resend = try await RecordingServer.start { _ in (200, #"{"id": "49a3999c-0ce1-4ea6-ab68-afcd6dc2e794"}"#) }
        defer { Task { await resend.stop() } }
        let key = "re_test_\(UUID().uuidString.prefix(8))"
        let email = [
            "EMAIL_DELIVERY": "resend", "EMAIL_FROM": "Gatehouse <signin@example.com>", "RESEND_API_KEY": key,
            "RESEND_BASE_URL": resend.baseURL,
        ]
        try await LocalAPI.with(cli: cli, variables: ["SendMagicLink": email]) { api in
            let address = "resend-\(UUID().uuidString.prefix(6))@example.com"
            let sent = try await post(api, "/auth/send-magic-link", #"{"email":"\#(address)","app":"demo"}"#)
            #expect(sent.status == 200)
            #expect(try await eventually(10) { !resend.requests.isEmpty })
            let mail = try #require(resend.requests.first)
            #expect(mail.target == "/emails" && mail.header("authorization") == "Bearer \(key)")
            let body = try JSONValue(parsing: mail.body)
            #expect(body["to"] == [.string(address)])
            let text = try #require(body["text"]?.stringValue)
            let marker = "/auth/email-callback?token="
            let token = try #require(text.components(separatedBy: marker).dropFirst().first).prefix {
                !$0.isWhitespace
            }
            let click = try await api.click(marker + token)
            #expect(click.status == 302)
            #expect(!api.log.contains(key) && !api.log.contains(String(token)), "no key or token in a log line")
        }
    }
}
