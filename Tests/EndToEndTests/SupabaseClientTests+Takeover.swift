import Foundation
import GatehouseJSON
import Testing

/// The account-takeover paths of the second security review, each as the attacker tried it:
/// through start-api and the real binaries, the victim's mail read from the outbox, scanners
/// fetching links with ordinary browser agents.
extension SupabaseClientTests {
    /// The link in the last email of `type` to `address`, as a path on the API.
    func linkPath(_ address: String, type: String) async throws -> String {
        let token = try #require(try await tokens(address, type: type).last)
        return "/auth/v1/verify?token=\(token)&type=\(type)"
    }

    /// What mail scanners do with a link: a HEAD, then GETs with Outlook's, Edge's and
    /// HeadlessChrome's agents and no cookies, each answer's redirect followed.
    func scan(_ api: LocalAPI, _ path: String) async throws {
        #expect(try await api.request("HEAD", path).status == 200)
        for agent in LinkScanners.agents {
            let fetched = try await api.request("GET", path, headers: [("User-Agent", agent)])
            #expect(fetched.status == 200, "\(agent)")
            #expect(!fetched.headers.contains { $0.0 == "location" }, "nothing to follow")
            #expect(!String(decoding: fetched.body, as: UTF8.self).contains("access_token"))
        }
    }

    /// Login CSRF: another site's form posting a link's button (the attacker's own link, pressed
    /// in the victim's browser, would sign the victim in to the attacker's account) is refused
    /// before the link is used; the post of the link's own page then works.
    @Test func anotherSitesFormCannotPressAnEmailedLink() async throws {
        try await LocalAPI.with(cli: cli) { api in
            let key = try await apiKey()
            let signedUp = try await post(
                api, "/signup", key: key, #"{"email":"mallory@example.com","password":"correct horse battery"}"#)
            #expect(signedUp.status == 200)
            let token = try #require(try await tokens("mallory@example.com", type: "signup").last)
            func press(_ headers: [(String, String)]) async throws -> Int {
                try await api.postForm("/auth/v1/verify", "token=\(token)&type=signup", headers: headers).status
            }
            #expect(try await press([("Origin", "https://evil.example"), ("Sec-Fetch-Site", "cross-site")]) == 403)
            #expect(try await press([("Origin", "null"), ("Sec-Fetch-Site", "cross-site")]) == 403)
            #expect(try await press([("Sec-Fetch-Site", "cross-site")]) == 403)
            #expect(try await eventually { api.log.contains(#""reason":"cross_site_post""#) })
            let own = [("Origin", "http://127.0.0.1:\(api.port)"), ("Sec-Fetch-Site", "same-origin")]
            #expect(try await press(own) == 303, "the link was not spent by the refusals")
        }
    }

    func fragment(_ answer: (status: Int, headers: [(String, String)], body: [UInt8])) -> String {
        let location = answer.headers.first { $0.0 == "location" }?.1 ?? ""
        return String(location.split(separator: "#", maxSplits: 1).last ?? "")
    }

    /// HIGH: a sign-up by someone else must not leave their password on the owner's account,
    /// whether a scanner, the owner's click or the owner's own later sign-up meets the link.
    @Test func aSignUpBySomeoneElseNeverLeavesTheirPasswordOnTheAccount() async throws {
        try await LocalAPI.with(cli: cli) { api in
            let key = try await apiKey()
            let attacker = #"{"email":"victim@example.com","password":"attacker passphrase 1"}"#
            #expect(try await post(api, "/signup", key: key, attacker).status == 200)
            let planted = try await linkPath("victim@example.com", type: "signup")
            // Scanners use nothing: the address stays unconfirmed.
            try await scan(api, planted)
            let early = try await signIn(api, key: key, "victim@example.com", "attacker passphrase 1")
            #expect(early == 400)

            // The owner's own sign-up replaces the attempt: a fresh email, the planted link dead.
            let owner = #"{"email":"victim@example.com","password":"owner passphrase 22"}"#
            #expect(try await post(api, "/signup", key: key, owner).status == 200)
            #expect(try await tokens("victim@example.com", type: "signup").count == 2)
            #expect(fragment(try await api.click(planted)).contains("error_code=otp_expired"))

            // The owner confirms with the button: signed in, and no password but their own to come.
            let confirmed = try await api.click(try await linkPath("victim@example.com", type: "signup"))
            #expect(confirmed.status == 303 && fragment(confirmed).hasPrefix("access_token=eyJ"))
            #expect(try await signIn(api, key: key, "victim@example.com", "attacker passphrase 1") == 400)
            #expect(try await signIn(api, key: key, "victim@example.com", "owner passphrase 22") == 400)
        }
    }

    /// HIGH: the attacker signs up the victim's address and the victim, or a scanner, follows
    /// the only confirmation email there is. The address is confirmed only by the button, and
    /// the attacker's password is gone when it is.
    @Test func aConfirmationByTheLinkDropsThePasswordChosenAtSignUp() async throws {
        try await LocalAPI.with(cli: cli) { api in
            let key = try await apiKey()
            let attacker = #"{"email":"victim@example.com","password":"attacker passphrase 1"}"#
            #expect(try await post(api, "/signup", key: key, attacker).status == 200)
            let link = try await linkPath("victim@example.com", type: "signup")
            try await scan(api, link)
            let clicked = try await api.click(link, headers: [("User-Agent", LinkScanners.agents[0])])
            #expect(clicked.status == 303 && fragment(clicked).hasPrefix("access_token=eyJ"))
            #expect(try await signIn(api, key: key, "victim@example.com", "attacker passphrase 1") == 400)
            let users = try await cli.run(["db", "scan", "Users"]).stdoutText
            #expect(users.contains("emailConfirmedAt") && !users.contains("emailPending"))
            #expect(try await cli.run(["db", "scan", "Passwords"]).stdoutText.isEmpty)
        }
    }

    /// HIGH: an attacker's confirmed account asks for the victim's address. The victim's click
    /// alone moves nothing and signs no one in; the answer is the same as for a taken address.
    @Test func anAddressChangeNeedsBothAddressesAndTellsNothing() async throws {
        try await LocalAPI.with(cli: cli) { api in
            let key = try await apiKey()
            try await confirmedAccounts(["attacker@example.com", "taken@example.com"], api: api, key: key)
            let session = try JSONValue(
                parsing: try await post(
                    api, "/token?grant_type=password", key: key,
                    #"{"email":"attacker@example.com","password":"correct horse battery"}"#
                ).body)
            let access = try #require(session["access_token"]?.stringValue)
            func change(_ address: String) async throws -> (status: Int, body: String) {
                let answer = try await api.request(
                    "PUT", "/auth/v1/user",
                    headers: [
                        ("apikey", key), ("Authorization", "Bearer \(access)"), ("Content-Type", "application/json"),
                    ], body: Array(#"{"email":"\#(address)"}"#.utf8))
                return (answer.status, String(decoding: answer.body, as: UTF8.self))
            }
            let taken = try await change("taken@example.com")
            let free = try await change("victim@example.com")
            #expect(taken.status == 200 && free.status == 200)
            #expect(taken.body == free.body, "the answer does not tell whether the address is taken")
            // The emails go out after the answers: the requester's own inbox gets a link for each.
            #expect(
                try await eventuallyAwaiting(10) {
                    let own = try await tokens("attacker@example.com", type: "email_change")
                    let victim = try await tokens("victim@example.com", type: "email_change")
                    return own.count == 2 && !victim.isEmpty
                })
            #expect(try await tokens("taken@example.com", type: "email_change").isEmpty)

            let toVictim = try await linkPath("victim@example.com", type: "email_change")
            try await scan(api, toVictim)
            let clicked = try await api.click(toVictim)
            #expect(clicked.status == 303 && !fragment(clicked).contains("access_token"))
            #expect(fragment(clicked).contains("message=Confirmation%20link%20accepted"))
            let me = try await api.request(
                "GET", "/auth/v1/user", headers: [("apikey", key), ("Authorization", "Bearer \(access)")])
            #expect(try JSONValue(parsing: me.body)["email"] == "attacker@example.com")
            #expect(try await signIn(api, key: key, "victim@example.com", "correct horse battery") == 400)
        }
    }
}

extension SupabaseClientTests {
    /// The implicit flow's sign-up, confirmed on the link's page with the password chosen at
    /// sign-up, keeps it (as Supabase does); a wrong one leaves the link unused and asks again.
    /// Left empty (someone else signed up), the password goes, as the test above shows.
    @Test func theImplicitFlowsConfirmPageKeepsThePasswordItIsGiven() async throws {
        try await LocalAPI.with(cli: cli) { api in
            let key = try await apiKey()
            let signUp = #"{"email":"keeper@example.com","password":"correct horse battery"}"#
            #expect(try await post(api, "/signup", key: key, signUp).status == 200)
            let token = try #require(try await tokens("keeper@example.com", type: "signup").last)
            let page = try await api.request("GET", "/auth/v1/verify?token=\(token)&type=signup")
            #expect(String(decoding: page.body, as: UTF8.self).contains(#"name="password""#))
            let own = [("Origin", "http://127.0.0.1:\(api.port)"), ("Sec-Fetch-Site", "same-origin")]
            func press(_ password: String) async throws -> (status: Int, headers: [(String, String)], body: [UInt8]) {
                try await api.postForm(
                    "/auth/v1/verify", "token=\(token)&type=signup&password=\(password)", headers: own)
            }
            let wrong = try await press("wrong+horse+battery")
            #expect(wrong.status == 400 && String(decoding: wrong.body, as: UTF8.self).contains("not the password"))
            let signIn = #"{"email":"keeper@example.com","password":"correct horse battery"}"#
            #expect(try await post(api, "/token?grant_type=password", key: key, signIn).status == 400, "not yet")
            let right = try await press("correct+horse+battery")
            #expect(right.status == 303 && fragment(right).contains("access_token="))
            #expect(try await post(api, "/token?grant_type=password", key: key, signIn).status == 200)
        }
    }
}
