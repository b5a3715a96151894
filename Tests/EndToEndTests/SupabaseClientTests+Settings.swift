import Foundation
import GatehouseJSON
import Testing

extension SupabaseClientTests {
    /// `GET /auth/v1/settings` says what this API offers, for a known `apikey` only;
    /// `GET /auth/v1/health` answers anyone.
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
            // Phone codes: start-api sends them to the outbox.
            #expect(external["phone"] == true && settings["sms_provider"] == "outbox")
            #expect(external.filter { $0.value == true }.count == 4, "only email, phone, apple and google: \(external)")
            #expect(settings["disable_signup"] == false && settings["mailer_autoconfirm"] == false)
            let refused = try await api.request("GET", "/auth/v1/settings", headers: [("apikey", "gh_pk_unknown")])
            #expect(refused.status == 401)
            // Health, as Supabase answers it, with no key: what a load balancer checks.
            let health = try await api.request("GET", "/auth/v1/health")
            #expect(health.status == 200)
            let status = try JSONValue(parsing: health.body)
            #expect(status["name"] == "Gatehouse" && status["version"] != nil && status["description"] != nil)
        }
    }
}

extension SupabaseClientTests {
    /// supabase-js on another origin: the browser's preflight for `/auth/v1/token` with the
    /// headers Supabase's clients send is allowed (any origin by default, `CorsAllowOrigins`),
    /// and the answer itself may be read; no credentials (cookies) are ever allowed across
    /// origins.
    @Test func aBrowserOnAnotherOriginMayCallTheSupabaseRoutes() async throws {
        try await LocalAPI.with(cli: cli) { api in
            let preflight = try await api.request(
                "OPTIONS", "/auth/v1/token?grant_type=password",
                headers: [
                    ("Origin", "https://app.example.com"), ("Access-Control-Request-Method", "POST"),
                    ("Access-Control-Request-Headers", "apikey,authorization,content-type,x-client-info"),
                ])
            func header(_ answer: (status: Int, headers: [(String, String)], body: [UInt8]), _ name: String) -> String?
            {
                answer.headers.first { $0.0.lowercased() == name }?.1
            }
            #expect((200..<300).contains(preflight.status))
            #expect(header(preflight, "access-control-allow-origin") == "*")
            let allowed = Set(
                (header(preflight, "access-control-allow-headers") ?? "").lowercased().split(separator: ",").map {
                    $0.trimmingCharacters(in: .whitespaces)
                })
            #expect(allowed.isSuperset(of: ["apikey", "authorization", "content-type", "x-client-info"]))
            #expect((header(preflight, "access-control-allow-methods") ?? "").contains("POST"))
            #expect(header(preflight, "access-control-allow-credentials") == nil)
            let settings = try await api.request(
                "GET", "/auth/v1/settings",
                headers: [("apikey", try await apiKey()), ("Origin", "https://app.example.com")])
            #expect(settings.status == 200 && header(settings, "access-control-allow-origin") == "*")
        }
    }
}
