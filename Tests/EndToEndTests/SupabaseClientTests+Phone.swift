import Emulator
import Foundation
import GatehouseJSON
import TestServers
import Testing

extension SupabaseClientTests {
    /// `/otp {phone}` texts through the same `PhoneCodes` as `/auth/otp/request`: one count of
    /// requests per number and source across both routes (3 an hour), the 4th refused in
    /// Supabase's shape;
    /// a number that is not one is refused and nothing is texted.
    @Test func phoneCodesOnBothAPIsShareOneLimit() async throws {
        try await LocalAPI.with(cli: cli) { api in
            let key = try await apiKey()
            let phone = #"{"phone":"+14155550177"}"#
            #expect(try await post(api, "/otp", key: key, phone).status == 200)
            let own = try await api.request(
                "POST", "/auth/otp/request", headers: [("Content-Type", "application/json")],
                body: Array(#"{"phoneNumber":"+14155550177"}"#.utf8))
            #expect(own.status == 200)
            #expect(try await post(api, "/otp", key: key, phone).status == 200)
            let refused = try await post(api, "/otp", key: key, phone)
            #expect(refused.status == 429 && Self.code(refused.body) == "over_request_rate_limit")
            #expect(refused.headers.contains { $0.0 == "retry-after" })
            let texts = try await cli.run(["outbox", "--json", "--to", "+14155550177"]).stdoutText
            #expect(texts.split(separator: "\n").count == 3)

            let bad = try await post(api, "/otp", key: key, #"{"phone":"555-0100"}"#)
            #expect(bad.status == 400 && Self.code(bad.body) == "validation_failed")
            let sms = try await post(api, "/verify", key: key, #"{"type":"sms","phone":"+14155550177","token":"12"}"#)
            #expect(sms.status == 400 && Self.code(sms.body) == "validation_failed")
        }
    }
}

extension SupabaseClientTests {
    /// A number's password account (`signUp(phone:password:)`, `verifyOTP(type: .sms)`,
    /// `signIn(phone:password:)`, `resend(phone:type: .sms)`) through start-api, driven by
    /// Supabase's own Python client (`Tests/Support/Supabase/supabase_phone.py`).
    @Test func aNumbersPasswordAccountSignsUpConfirmsByItsCodeAndSignsIn() async throws {
        try await LocalAPI.with(cli: cli) { api in
            guard let seen = try await client("supabase_phone.py", api: api) else { return }
            let owner: JSONValue = "+14155550140"
            let invalid: JSONValue = ["code": "invalid_credentials", "status": 400]
            #expect(
                seen["signUp"] == [
                    "session": false, "phone": "+14155550140", "confirmed": false, "metadata": ["plan": "pro"],
                ])
            #expect(seen["beforeCode"] == ["code": "phone_not_confirmed", "status": 400])
            #expect(
                seen["verified"] == ["session": true, "phone": "+14155550140", "confirmed": true, "sameUser": true])
            #expect(seen["passwordSignIn"] == "+14155550140")
            #expect(seen["wrongPassword"] == invalid)
            #expect(seen["withoutPlus"] == "+14155550140")
            #expect(
                seen["taken"] == [
                    "session": false, "phone": "+14155550140", "confirmed": false, "sameId": false, "texted": 2,
                    "otherPassword": invalid, "ownPassword": "+14155550140",
                ])
            #expect(
                seen["preRegistered"] == ["sameCode": true, "signedIn": "+14155550141", "strangersPassword": invalid])
            #expect(
                seen["resend"] == [
                    "texts": 2, "sameCode": true, "unknown": nil, "unknownTexted": 0, "passwordSignIn": "+14155550142",
                ])
            #expect(seen["contested"] == [invalid, invalid])
            #expect(
                seen["refused"] == [
                    "both": [400, "validation_failed"], "pkce": [400, "validation_failed"], "texted": 0,
                ])
            let expired: JSONValue = ["code": "otp_expired", "status": 403]
            #expect(
                seen["phoneChange"] == [
                    "answered": owner, "signInWithIt": expired, "phone": "+14155560145", "sameUser": true,
                    "session": true, "newNumber": "+14155560145", "oldNumber": invalid, "again": expired,
                ])
            #expect(seen["takenNumber"] == ["answered": "+14155550142", "texted": 0])
            #expect(seen["resendChange"] == ["texts": 2, "sameCode": true, "moved": "+14155570146"])
            #expect(
                seen["squatted"] == [
                    "texts": 2, "moved": "+14155610148", "sameUser": true, "strangersPassword": invalid,
                ])
            // The store: the confirmed number's user no longer expires, nor does its password; its
            // old number is free.
            let users = try await cli.run(["db", "scan", "Users"]).stdoutText
            let row = users.split(separator: "\n").first { $0.contains("+14155560145") } ?? ""
            let index = try await cli.run(["db", "scan", "UserIndex"]).stdoutText
            #expect(!index.contains("phone#+14155550140") && index.contains("phone#+14155560145"))
            #expect(!row.isEmpty && !row.contains("\"ttl\"") && !row.contains("phonePending"), "\(row)")
        }
    }
}
