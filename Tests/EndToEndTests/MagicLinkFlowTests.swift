import Emulator
import Foundation
import GatehouseJSON
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Sign-in by magic link as a user goes through it: `start-api` with the real binaries, the
/// link read from `gatehouse outbox`, the click, the code exchanged, the profile read.
@Suite(.serialized)
struct MagicLinkFlowTests {
    let cli = GatehouseCLI()

    func withAPI(variables: [String: [String: String]] = [:], _ body: (LocalAPI) async throws -> Void) async throws {
        try await LocalAPI.with(cli: cli, variables: variables, body)
    }

    func send(
        _ api: LocalAPI, _ body: String, contentType: String = "application/json"
    ) async throws -> (
        status: Int, headers: [(String, String)], body: [UInt8]
    ) {
        try await api.request(
            "POST", "/auth/send-magic-link", headers: [("Content-Type", contentType)], body: Array(body.utf8))
    }

    /// The messages `gatehouse outbox --json --to` lists for `address`.
    func outbox(_ address: String) async throws -> [JSONValue] {
        let run = try await cli.run(["outbox", "--json", "--to", address])
        #expect(run.status == 0, "\(run.stderr)")
        return try run.stdoutText.split(separator: "\n").map { try JSONValue(parsing: Array($0.utf8)) }
    }

    /// The path and query of the last link mailed to `address`.
    func lastLink(_ address: String, api: LocalAPI) async throws -> String {
        let link = try #require(try await outbox(address).last?["secret"]?.stringValue)
        let prefix = "http://127.0.0.1:\(api.port)"
        #expect(link.hasPrefix(prefix + "/auth/email-callback?token="))
        return String(link.dropFirst(prefix.count))
    }

    func location(_ answer: (status: Int, headers: [(String, String)], body: [UInt8])) -> String? {
        answer.headers.first { $0.0 == "location" }?.1
    }

    @Test func sendClickExchangeAndReadTheProfileOnTheWebAndOnMobile() async throws {
        try await withAPI { api in
            let sent = try await send(api, #"{"email":"Ada.Lovelace@Example.com","app":"demo"}"#)
            #expect(sent.status == 200)
            #expect(try JSONValue(parsing: sent.body) == ["success": true])
            let path = try await lastLink("Ada.Lovelace@example.com", api: api)
            // start-api's console announced it.
            let announced = try await eventually(10) {
                api.log.contains("✉ Ada.Lovelace@example.com: http://127.0.0.1:\(api.port)\(path)")
            }
            #expect(announced)

            let click = try await api.click(path, headers: [("User-Agent", "Mozilla/5.0 (X11; Linux) Firefox/130")])
            #expect(click.status == 302)
            #expect(click.headers.contains { $0 == ("cache-control", "no-store") })
            #expect(click.headers.contains { $0 == ("referrer-policy", "no-referrer") })
            let redirect = try #require(location(click))
            #expect(redirect.hasPrefix("http://127.0.0.1:\(api.port)/app/auth/callback?code="))
            let code = String(redirect.split(separator: "code=").last!)
            let exchanged = try await api.request(
                "POST", "/auth/exchange", headers: [("Content-Type", "application/json")],
                body: Array(#"{"code":"\#(code)","app":"demo"}"#.utf8))
            #expect(exchanged.status == 200)
            let token = try #require(try JSONValue(parsing: exchanged.body)["accessToken"]?.stringValue)
            let profile = try await api.request("GET", "/users/me", headers: [("Authorization", "Bearer \(token)")])
            #expect(profile.status == 200)
            let user = try JSONValue(parsing: profile.body)
            #expect(user["email"] == "Ada.Lovelace@example.com")
            #expect(user["name"] == "Ada Lovelace")

            // A second click finds the link used.
            let again = try await api.click(path)
            #expect(again.status == 302)
            #expect(location(again) == "http://127.0.0.1:\(api.port)/app/auth/callback?error=link_expired")

            // Mobile returns to the app's scheme.
            _ = try await send(api, #"{"email":"ada.lovelace@example.com","app":"demo","platform":"mobile"}"#)
            let mobile = try await api.click(try await lastLink("ada.lovelace@example.com", api: api))
            #expect(location(mobile)?.hasPrefix("gatehouse-demo://auth/callback?code=") == true)
        }
    }

    /// Mail scanners fetch links with ordinary browser agents and no cookies, following
    /// redirects (Safe Links): a HEAD, an Outlook, an Edge and a HeadlessChrome fetch each get
    /// the page whose button POSTs the token, and use nothing; then the person's click signs in.
    /// Login CSRF: another site's form posting a magic link's button (the attacker's own link,
    /// pressed in the victim's browser, would sign the victim in as the attacker) is refused
    /// before the link is used; the page's own post (its Origin is `null` under the page's
    /// `no-referrer` policy, with `Sec-Fetch-Site: same-origin`) then works.
    @Test func anotherSitesFormCannotPressAMagicLink() async throws {
        try await withAPI { api in
            _ = try await send(api, #"{"email":"mallory@example.com","app":"demo"}"#)
            let path = try await lastLink("mallory@example.com", api: api)
            let token = String(path.split(separator: "token=").last!)
            func press(_ headers: [(String, String)]) async throws -> Int {
                try await api.postForm("/auth/email-callback", "token=\(token)", headers: headers).status
            }
            #expect(try await press([("Origin", "https://evil.example"), ("Sec-Fetch-Site", "cross-site")]) == 403)
            #expect(try await press([("Origin", "null"), ("Sec-Fetch-Site", "cross-site")]) == 403)
            #expect(try await cli.run(["db", "scan", "MagicLinks"]).stdoutText.contains(#""state":"pending""#))
            #expect(try await press([("Origin", "null"), ("Sec-Fetch-Site", "same-origin")]) == 302)
        }
    }

    @Test func scannersWithBrowserAgentsDoNotUseUpTheLink() async throws {
        try await withAPI { api in
            _ = try await send(api, #"{"email":"grace@example.com","app":"demo"}"#)
            let path = try await lastLink("grace@example.com", api: api)
            let token = String(path.split(separator: "token=").last!)
            #expect(try await api.request("HEAD", path).status == 200)
            for agent in LinkScanners.agents {
                let scanned = try await api.request("GET", path, headers: [("User-Agent", agent)])
                #expect(scanned.status == 200, "\(agent)")
                let page = String(decoding: scanned.body, as: UTF8.self)
                #expect(page.contains(#"<form method="post" action="email-callback">"#))
                #expect(page.contains(#"name="token" value="\#(token)""#))
                #expect(scanned.headers.contains { $0.0 == "content-security-policy" })
            }
            // Nothing was used: the link is still pending, and no code was minted.
            #expect(try await cli.run(["db", "scan", "MagicLinks"]).stdoutText.contains(#""state":"pending""#))
            #expect(try await cli.run(["db", "scan", "AuthCodes"]).stdoutText.isEmpty)

            let posted = try await api.click(path, headers: [("User-Agent", LinkScanners.agents[1])])
            #expect(posted.status == 302)
            #expect(location(posted)?.hasPrefix("http://127.0.0.1:\(api.port)/app/auth/callback?code=") == true)
        }
    }

    @Test func anExpiredLinkReturnsToTheAppWithAnErrorAndAnUnknownOneGetsAPage() async throws {
        try await withAPI(variables: ["SendMagicLink": ["MAGIC_LINK_TTL_SECONDS": "1"]]) { api in
            _ = try await send(api, #"{"email":"late@example.com","app":"demo"}"#)
            let path = try await lastLink("late@example.com", api: api)
            try await Task.sleep(for: .milliseconds(1100))
            let late = try await api.click(path)
            #expect(location(late) == "http://127.0.0.1:\(api.port)/app/auth/callback?error=link_expired")
            let unknown = try await api.click("/auth/email-callback?token=\(String(repeating: "x", count: 64))")
            #expect(unknown.status == 400)
            #expect(String(decoding: unknown.body, as: UTF8.self).contains("not valid"))
        }
    }

    /// The answers for an address with an account and one without are the same bytes, apart
    /// from the date and the request id.
    @Test func theAnswerDoesNotTellWhetherAnAccountExists() async throws {
        try await withAPI { api in
            _ = try await api.signIn("known@example.com", cli: cli)
            let known = try await send(api, #"{"email":"known@example.com","app":"demo"}"#)
            let unknown = try await send(api, #"{"email":"nobody@example.com","app":"demo"}"#)
            func comparable(_ headers: [(String, String)]) -> [String] {
                headers.filter { !["date", "apigw-requestid"].contains($0.0) }.map { "\($0.0): \($0.1)" }
            }
            #expect(known.status == unknown.status)
            #expect(comparable(known.headers) == comparable(unknown.headers))
            #expect(known.body == unknown.body)
            #expect(try await outbox("nobody@example.com").count == 1)
        }
    }

    @Test func theSixthSendInAnHourIsRefusedWithRetryAfter() async throws {
        try await withAPI { api in
            for _ in 0..<5 { #expect(try await send(api, #"{"email":"ada@example.com","app":"demo"}"#).status == 200) }
            let refused = try await send(api, #"{"email":"ada@example.com","app":"demo"}"#)
            #expect(refused.status == 429)
            let retryAfter = try #require(refused.headers.first { $0.0 == "retry-after" }.flatMap { Int($0.1) })
            #expect((1...3600).contains(retryAfter))
            #expect(try JSONValue(parsing: refused.body)["error"] == "rate_limited")
            #expect(try await outbox("ada@example.com").count == 5)
        }
    }

    @Test func badRequestsNameTheFieldAndSendNothing() async throws {
        try await withAPI { api in
            let cases: [(String, String, String)] = [
                (#"{"app":"demo"}"#, "application/json", "email"),
                (#"{"email":"not-an-address","app":"demo"}"#, "application/json", "email"),
                (#"{"email":"ada@example.com","app":""}"#, "application/json", "app"),
                (#"{"email":"ada@example.com","app":"demo","platform":"tv"}"#, "application/json", "platform"),
                (#"{"email":42,"app":"demo"}"#, "application/json", "email"),
                (#"email=ada@example.com&app=demo"#, "application/x-www-form-urlencoded", "content-type"),
                ("{" + String(repeating: " ", count: 20000) + "}", "application/json", "16384"),
                ("not json", "application/json", "JSON"),
            ]
            for (body, type, named) in cases {
                let answer = try await send(api, body, contentType: type)
                #expect(answer.status == 400, "\(body.prefix(60))")
                let message = try JSONValue(parsing: answer.body)["message"]?.stringValue ?? ""
                #expect(message.contains(named), "\(message)")
            }
            #expect(try await cli.run(["outbox", "--json"]).stdoutText.isEmpty)
        }
    }

    /// No link token appears in the log but on start-api's own delivery notice.
    @Test func tokensAppearOnlyInTheDeliveryNotice() async throws {
        try await withAPI { api in
            _ = try await send(api, #"{"email":"secret@example.com","app":"demo"}"#)
            let path = try await lastLink("secret@example.com", api: api)
            _ = try await api.click(path)
            let token = String(path.split(separator: "token=").last!)
            // Both the notice and the callback's log line reach start-api's log asynchronously.
            _ = try await eventually(10) { api.log.contains("magic link used") && api.log.contains("✉ secret@") }
            let lines = api.log.split(separator: "\n").filter { $0.contains(token) }
            #expect(lines.count == 1)
            #expect(lines.allSatisfy { $0.hasPrefix("✉ secret@example.com: ") })
        }
    }
}

/// An app's backend asking for a link server-to-server: `POST /api/v1/auth/email` with an
/// assertion from `gatehouse s2s sign`, verified and spent as `VerifyCode` does.
@Suite(.serialized)
struct MagicLinkServerToServerTests {
    let cli = GatehouseCLI()

    @Test func aSignedRequestMailsALinkOnceAndAReplayIsRefused() async throws {
        let privateKey = try await cli.registerApp("acme", extra: ["--base-url", "https://acme.example"])
        let api = try await LocalAPI(template: GatehouseCLI.projectTemplate, cli: cli)
        defer { api.process.kill(SIGINT) }
        let body = #"{"app":"acme","email":"ceo@acme.example"}"#
        let signed = try await cli.run([
            "s2s", "sign", "--app", "acme", "--key", privateKey, "--body", body, "--audience",
            "http://127.0.0.1:\(api.port)",
        ])
        #expect(signed.status == 0, "\(signed.stderr)")
        let headers = signed.stdoutText.split(separator: "\n").map { line -> (String, String) in
            let parts = line.split(separator: ":", maxSplits: 1)
            return (String(parts[0]), parts[1].trimmingCharacters(in: .whitespaces))
        }
        let first = try await api.request("POST", "/api/v1/auth/email", headers: headers, body: Array(body.utf8))
        // start-api's log beside a failure: a 500 here once came with nothing else to go on.
        #expect(first.status == 200, "\(String(decoding: first.body, as: UTF8.self))\n\(api.log)")
        let replay = try await api.request("POST", "/api/v1/auth/email", headers: headers, body: Array(body.utf8))
        #expect(replay.status == 401)
        let unsigned = try await api.request(
            "POST", "/api/v1/auth/email", headers: [("Content-Type", "application/json")], body: Array(body.utf8))
        #expect(unsigned.status == 401)
        let outbox = try await cli.run(["outbox", "--json", "--to", "ceo@acme.example"])
        let messages = outbox.stdoutText.split(separator: "\n")
        #expect(messages.count == 1)
        #expect(messages.first?.contains(#""app":"acme""#) == true)
        _ = await api.stop()
    }
}

/// A mobile app's code travels through a URL scheme another app may register too: bound to the
/// app's PKCE challenge, it is useless without the verifier.
@Suite(.serialized)
struct CodeBindingTests {
    let cli = GatehouseCLI()
    static let verifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"
    static let challenge = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"

    /// A mobile link sent with the challenge, clicked: the code from the redirect.
    func boundCode(_ api: LocalAPI, _ email: String) async throws -> String {
        let sent = try await api.request(
            "POST", "/auth/send-magic-link", headers: [("Content-Type", "application/json")],
            body: Array(
                #"{"email":"\#(email)","app":"demo","platform":"mobile","codeChallenge":"\#(Self.challenge)"}"#.utf8))
        #expect(sent.status == 200)
        let run = try await cli.run(["outbox", "--json", "--to", email])
        let last = try #require(run.stdoutText.split(separator: "\n").last)
        let link = try #require(try JSONValue(parsing: Array(last.utf8))["secret"]?.stringValue)
        let click = try await api.click(String(link.dropFirst("http://127.0.0.1:\(api.port)".count)))
        let location = try #require(click.headers.first { $0.0 == "location" }?.1)
        #expect(location.hasPrefix("gatehouse-demo://auth/callback?code="))
        return String(location.split(separator: "code=").last!)
    }

    func exchange(_ api: LocalAPI, _ code: String, verifier: String?) async throws -> Int {
        let member = verifier.map { #","codeVerifier":"\#($0)""# } ?? ""
        return try await api.request(
            "POST", "/auth/exchange", headers: [("Content-Type", "application/json")],
            body: Array(#"{"code":"\#(code)","app":"demo"\#(member)}"#.utf8)
        ).status
    }

    @Test func anInterceptedCodeIsRefusedWithoutTheVerifierAndWorksOnceWithIt() async throws {
        try await LocalAPI.with(cli: cli) { api in
            let intercepted = try await boundCode(api, "mobile@example.com")
            #expect(try await exchange(api, intercepted, verifier: nil) == 401)
            // Spent by the refusal: the rightful app's late try fails too, loudly.
            #expect(try await exchange(api, intercepted, verifier: Self.verifier) == 401)

            let code = try await boundCode(api, "mobile2@example.com")
            #expect(try await exchange(api, code, verifier: Self.verifier) == 200)
            #expect(try await exchange(api, code, verifier: Self.verifier) == 401)

            let bad = try await api.request(
                "POST", "/auth/send-magic-link", headers: [("Content-Type", "application/json")],
                body: Array(#"{"email":"x@example.com","app":"demo","codeChallenge":"plain"}"#.utf8))
            #expect(bad.status == 400)
        }
    }

    @Test func aPhoneCodeRequestedWithAChallengeNeedsTheVerifier() async throws {
        try await LocalAPI.with(cli: cli) { api in
            func post(_ path: String, _ body: String) async throws -> Int {
                try await api.request(
                    "POST", path, headers: [("Content-Type", "application/json")], body: Array(body.utf8)
                ).status
            }
            func lastCode() async throws -> String {
                let run = try await cli.run(["outbox", "--json", "--to", "+14155550142"])
                let last = try #require(run.stdoutText.split(separator: "\n").last)
                return try #require(try JSONValue(parsing: Array(last.utf8))["secret"]?.stringValue)
            }
            let request = #"{"phoneNumber":"+14155550142","codeChallenge":"\#(Self.challenge)"}"#
            #expect(try await post("/auth/otp/request", request) == 200)
            let stolen = try await lastCode()
            #expect(try await post("/auth/otp/verify", #"{"phoneNumber":"+14155550142","code":"\#(stolen)"}"#) == 401)
            #expect(try await post("/auth/otp/request", request) == 200)
            let code = try await lastCode()
            #expect(
                try await post(
                    "/auth/otp/verify",
                    #"{"phoneNumber":"+14155550142","code":"\#(code)","codeVerifier":"\#(Self.verifier)"}"#) == 200)
        }
    }
}
