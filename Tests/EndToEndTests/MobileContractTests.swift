import Foundation
import GatehouseJSON
import JOSE
import Testing

/// The design's mobile clients, unchanged, against `start-api` with one app and the real
/// binaries: every request of the phone-first plan's `AuthService` (and its API section) and of
/// the central sign-in design's mobile table, with the bodies written as those documents write
/// them (no `app` anywhere), in the order an app sends them. Each answer's fields are checked,
/// and the store after the account's deletion.
@Suite(.serialized)
struct MobileContractTests {
    let cli = GatehouseCLI()

    typealias Answer = (status: Int, headers: [(String, String)], body: JSONValue)

    func post(_ api: LocalAPI, _ path: String, _ body: String, bearer: String? = nil) async throws -> Answer {
        var headers = [("Content-Type", "application/json")]
        if let bearer { headers.append(("Authorization", "Bearer \(bearer)")) }
        let answer = try await api.request("POST", path, headers: headers, body: Array(body.utf8))
        return (answer.status, answer.headers, try JSONValue(parsing: answer.body))
    }

    /// The last message `gatehouse outbox` holds for `recipient`: its secret (the code or link).
    func lastSecret(_ recipient: String) async throws -> String {
        let run = try await cli.run(["outbox", "--json", "--to", recipient])
        let last = try #require(run.stdoutText.split(separator: "\n").last)
        return try #require(try JSONValue(parsing: Array(last.utf8))["secret"]?.stringValue)
    }

    /// The claims of an access token (its signature is the authorizer's business, checked by
    /// `GET /users/me`).
    func claims(_ token: String) throws -> JSONValue {
        let parts = token.split(separator: ".")
        try #require(parts.count == 3)
        return try JSONValue(parsing: try #require(Base64URL.decode(parts[1])))
    }

    /// The one app, `demo` (already a mobile app, `gatehouse-demo://`), set to sign in with Apple
    /// without a nonce, since neither design's client sends one: its stored item with
    /// `appleNonceOptional`, put back through `gatehouse db` (what `apps add
    /// --apple-nonce-optional` stores).
    func letTheAppSkipApplesNonce() async throws {
        let listed = try await cli.run(["apps", "list"])
        let line = try #require(listed.stdoutText.split(separator: "\n").first { $0.contains(#""id":"demo""#) })
        guard case .object(var item) = try JSONValue(parsing: Array(line.utf8)) else {
            Issue.record("apps list printed \(line)")
            return
        }
        item["appleNonceOptional"] = true
        let put = try await cli.run(["db", "put", "Apps", JSONValue.object(item).serialized])
        #expect(put.status == 0, "\(put.stderr)")
        #expect(try await cli.run(["apps", "list"]).stdoutText.contains(#""appleNonceOptional":true"#))
    }

    /// A token from `gatehouse dev apple-token`; `expiresIn` makes two made in one second differ.
    func appleToken(sub: String, expiresIn: Int = 600) async throws -> String {
        let run = try await cli.run(["dev", "apple-token", "--sub", sub, "--expires-in", "\(expiresIn)"])
        #expect(run.status == 0, "\(run.stderr)")
        return run.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test func theDesignsMobileRequestsAllSucceedWithOneApp() async throws {
        try await LocalAPI.with(cli: cli) { api in
            try await letTheAppSkipApplesNonce()
            let phone = try await phoneFirst(api)
            try await appleSignIn(api)
            try await magicLink(api)
            try await deleteAccount(api, accessToken: phone.accessToken, refreshToken: phone.refreshToken)
        }
    }

    /// Phone-first plan: request, a wrong code, verify, refresh, the profile.
    func phoneFirst(_ api: LocalAPI) async throws -> (accessToken: String, refreshToken: String) {
        let requested = try await post(
            api, "/auth/otp/request", #"{ "phoneNumber": "+15551234567", "countryCode": "US" }"#)
        #expect(requested.status == 200)
        #expect(requested.body == ["success": true, "status": "pending", "message": "Verification code sent"])
        let code = try await lastSecret("+15551234567")

        let wrong = try await post(
            api, "/auth/otp/verify",
            #"{ "phoneNumber": "+15551234567", "countryCode": "US", "code": "\#(code == "000000" ? "000001" : "000000")", "name": "Betty" }"#
        )
        #expect(wrong.status == 401)
        #expect(wrong.body["success"] == false)
        #expect(wrong.body["error"] == "invalid_code")
        #expect(wrong.body["message"] == "The code is invalid, already used or expired.")

        let verified = try await post(
            api, "/auth/otp/verify",
            #"{ "phoneNumber": "+15551234567", "countryCode": "US", "code": "\#(code)", "name": "Betty" }"#)
        #expect(verified.status == 200, "\(verified.body)")
        #expect(verified.body["success"] == true)
        #expect(verified.body["isNewUser"] == true)
        #expect(verified.body["user"]?["phoneNumber"] == "+15551234567")
        #expect(verified.body["user"]?["name"] == "Betty")
        let userID = try #require(verified.body["user"]?["id"]?.stringValue)
        #expect(verified.body["tokens"]?["expiresIn"]?.numberValue.map { $0 > 0 && $0 <= 300 } == true)
        let access = try #require(verified.body["tokens"]?["accessToken"]?.stringValue)
        let refresh = try #require(verified.body["tokens"]?["refreshToken"]?.stringValue)
        #expect(try claims(access)["phone"] == "+15551234567")
        #expect(try claims(access)["sub"] == .string(userID))

        let refreshed = try await post(api, "/auth/refresh", #"{ "refreshToken": "\#(refresh)" }"#)
        #expect(refreshed.status == 200, "\(refreshed.body)")
        #expect(refreshed.body["expiresIn"] == 300)
        let newAccess = try #require(refreshed.body["accessToken"]?.stringValue)
        let newRefresh = try #require(refreshed.body["refreshToken"]?.stringValue)
        #expect(try claims(newAccess)["phone"] == "+15551234567")

        let profile = try await api.request("GET", "/users/me", headers: [("Authorization", "Bearer \(newAccess)")])
        #expect(profile.status == 200)
        let user = try JSONValue(parsing: profile.body)
        #expect(user["id"] == .string(userID))
        #expect(user["phone"] == "+15551234567")
        return (newAccess, newRefresh)
    }

    /// Apple: the phone-first plan's `POST /auth/apple`, then the central design's
    /// `POST /auth/verify-apple` for the same Apple user; then the plan's logout.
    func appleSignIn(_ api: LocalAPI) async throws {
        let token = try await appleToken(sub: "001122.betty")
        let first = try await post(
            api, "/auth/apple",
            #"{ "identityToken": "\#(token)", "fullName": { "givenName": "Betty", "familyName": "Smith" }, "email": "betty@example.com" }"#
        )
        #expect(first.status == 200, "\(first.body)")
        #expect(first.body["user"]?["isNewUser"] == true)
        #expect(first.body["user"]?["name"] == "Betty Smith")
        #expect(first.body["user"]?["provider"] == "apple")
        #expect(first.body["expiresIn"] == 300)
        #expect(first.body["accessToken"]?.stringValue != nil)
        let appleUser = try #require(first.body["user"]?["id"]?.stringValue)

        let second = try await appleToken(sub: "001122.betty", expiresIn: 601)
        let again = try await post(
            api, "/auth/verify-apple",
            #"{ "identityToken": "\#(second)", "authorizationCode": "c0de", "user": "001122.betty", "fullName": { "givenName": "Betty", "familyName": "Smith" } }"#
        )
        #expect(again.status == 200, "\(again.body)")
        #expect(again.body["user"]?["id"] == .string(appleUser))
        #expect(again.body["user"]?["isNewUser"] == false)
        for field in ["accessToken", "accessTokenExpiresAt", "refreshToken", "refreshTokenExpiresAt"] {
            #expect(again.body[field] != nil, "\(field)")
        }
        let refresh = try #require(again.body["refreshToken"]?.stringValue)
        let loggedOut = try await post(api, "/auth/logout", #"{ "refreshToken": "\#(refresh)" }"#)
        #expect(loggedOut.status == 200)
        #expect(loggedOut.body == ["success": true])
        #expect(try await post(api, "/auth/refresh", #"{ "refreshToken": "\#(refresh)" }"#).status == 401)
        // Sent again, the token ends nothing: the same answer, and nothing more recorded.
        #expect(try await post(api, "/auth/logout", #"{ "refreshToken": "\#(refresh)" }"#).body == ["success": true])
        // The sign-out is in the audit log, written after the answer: the user's, without an app
        // (a refresh token names none).
        var signOuts: [JSONValue] = []
        #expect(
            try await eventuallyAwaiting(10) {
                let run = try await cli.run(["audit", "--user", appleUser, "--action", "sign_out", "--json"])
                signOuts = try run.stdoutText.split(separator: "\n").map { try JSONValue(parsing: Array($0.utf8)) }
                return !signOuts.isEmpty
            })
        #expect(signOuts.count == 1)
        #expect(signOuts.first?["actor"] == .string(appleUser) && signOuts.first?["app"] == nil)
    }

    /// The central design's mobile magic link: send, the click, the code from the deep link
    /// exchanged, the refresh.
    func magicLink(_ api: LocalAPI) async throws {
        let sent = try await post(
            api, "/auth/send-magic-link", #"{ "email": "betty@example.com", "platform": "mobile" }"#)
        #expect(sent.status == 200)
        #expect(sent.body == ["success": true])
        let link = try await lastSecret("betty@example.com")
        let path = String(try #require(link.range(of: "/auth/email-callback").map { link[$0.lowerBound...] }))
        let click = try await api.click(path)
        #expect(click.status == 302)
        let location = try #require(click.headers.first { $0.0 == "location" }?.1)
        #expect(location.hasPrefix("gatehouse-demo://auth/callback?code="))
        let code = String(location.dropFirst("gatehouse-demo://auth/callback?code=".count))

        let exchanged = try await post(api, "/auth/exchange", #"{ "code": "\#(code)" }"#)
        #expect(exchanged.status == 200, "\(exchanged.body)")
        for field in ["accessToken", "accessTokenExpiresAt", "refreshToken", "refreshTokenExpiresAt", "expiresIn"] {
            #expect(exchanged.body[field] != nil, "\(field)")
        }
        #expect(exchanged.body["user"]?["email"] == "betty@example.com")
        #expect(exchanged.body["user"]?["isNewUser"] == true)
        #expect(exchanged.body["user"]?["id"]?.stringValue != nil)
        #expect(exchanged.body["user"]?["name"] != nil)
        // The code was bound to the one app: used once.
        #expect(try await post(api, "/auth/exchange", #"{ "code": "\#(code)" }"#).status == 401)
        // The link clicked again (someone else's copy, perhaps) is expired, and in the audit log
        // as the user's refused sign-in, written after the answer.
        let again = try await api.click(path)
        #expect(again.headers.first { $0.0 == "location" }?.1 == "gatehouse-demo://auth/callback?error=link_expired")
        let userID = try #require(exchanged.body["user"]?["id"]?.stringValue)
        var refused: [JSONValue] = []
        #expect(
            try await eventuallyAwaiting(10) {
                let run = try await cli.run(["audit", "--user", userID, "--action", "sign_in", "--json"])
                refused = try run.stdoutText.split(separator: "\n").map { try JSONValue(parsing: Array($0.utf8)) }
                    .filter { $0["outcome"] == "failure" }
                return !refused.isEmpty
            })
        #expect(refused.count == 1)
        #expect(refused.first?["reason"] == "wrong_code" && refused.first?["app"] == "demo")

        let refresh = try #require(exchanged.body["refreshToken"]?.stringValue)
        let refreshed = try await post(api, "/auth/refresh", #"{ "refreshToken": "\#(refresh)" }"#)
        #expect(refreshed.status == 200)
        for field in ["accessToken", "accessTokenExpiresAt", "refreshToken", "refreshTokenExpiresAt"] {
            #expect(refreshed.body[field] != nil, "\(field)")
        }
    }

    /// The plan's `DELETE /users/me`: the answer says what happened, and the user is gone.
    func deleteAccount(_ api: LocalAPI, accessToken: String, refreshToken: String) async throws {
        let userID = try #require(try claims(accessToken)["sub"]?.stringValue)
        let deleted = try await api.request(
            "DELETE", "/users/me", headers: [("Authorization", "Bearer \(accessToken)")])
        #expect(deleted.status == 200)
        let answer = try JSONValue(parsing: deleted.body)
        #expect(answer["success"] == true)
        #expect(
            answer["message"] == "The account has been deleted and all of its sessions have been signed out.")
        #expect(try await post(api, "/auth/refresh", #"{ "refreshToken": "\#(refreshToken)" }"#).status == 401)
        let users = try await cli.run(["db", "scan", "Users"]).stdoutText
        #expect(!users.contains(userID))
        #expect(!users.contains("+15551234567"))
    }
}
