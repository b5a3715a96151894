import GatehouseJSON
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
