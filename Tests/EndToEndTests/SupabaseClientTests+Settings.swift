import GatehouseJSON
import Testing

extension SupabaseClientTests {
    /// `GET /auth/v1/settings` says what this API offers, for a known `apikey` only.
    @Test func settingsSayWhatThisAPIOffers() async throws {
        try await LocalAPI.with(cli: cli) { api in
            let answer = try await api.request("GET", "/auth/v1/settings", headers: [("apikey", try await apiKey())])
            #expect(answer.status == 200)
            let settings = try JSONValue(parsing: answer.body)
            let external = try #require(settings["external"]?.objectValue)
            #expect(external["email"] == true)
            // Apple's ID tokens: start-api gives the functions the dev provider's Apple client ids.
            #expect(external["apple"] == true)
            // The OIDC provider, as google: start-api points the OIDC settings at its dev provider.
            #expect(external["google"] == true)
            #expect(external.filter { $0.value == true }.count == 3, "only email, apple and google: \(external)")
            #expect(external["phone"] == false)
            #expect(settings["disable_signup"] == false && settings["mailer_autoconfirm"] == false)
            let refused = try await api.request("GET", "/auth/v1/settings", headers: [("apikey", "gh_pk_unknown")])
            #expect(refused.status == 401)
        }
    }
}
