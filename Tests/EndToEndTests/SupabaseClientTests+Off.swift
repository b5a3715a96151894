import Emulator
import Foundation
import GatehouseJSON
import TestServers
import Testing

/// What is off in Gatehouse, single sign-on and Supabase's OAuth 2.1 server, through start-api:
/// every route supabase-swift calls for them answers Supabase's own error for that feature being
/// disabled, in both of Supabase's error shapes, never the gateway's bare 404; without a known
/// `apikey`, 401 as every Supabase route. Supabase's Python client's calls get the same
/// (`Tests/Support/Supabase/supabase_off.py`).
extension SupabaseClientTests {
    /// supabase/auth's `requireSAMLEnabled` and `requireOAuthServerEnabled`, when off.
    static let samlOff = (status: 404, code: "saml_provider_disabled", message: "SAML 2.0 is disabled")
    static let oauthServerOff = (status: 404, code: "feature_disabled", message: "OAuth server is disabled")

    /// Each route supabase-swift sends for them (`signInWithSSO`, `oauthServer`, `admin.oauth`),
    /// with the refusal it gets.
    static let offRoutes: [(method: String, path: String, off: (status: Int, code: String, message: String))] = {
        let client = "/auth/v1/admin/oauth/clients/9a8b7c6d-0000-4000-8000-000000000001"
        return [
            ("POST", "/auth/v1/sso", samlOff),
            ("GET", "/auth/v1/oauth/authorizations/auth-1", oauthServerOff),
            ("POST", "/auth/v1/oauth/authorizations/auth-1/consent", oauthServerOff),
            ("GET", "/auth/v1/user/oauth/grants", oauthServerOff),
            ("DELETE", "/auth/v1/user/oauth/grants?client_id=9a8b7c6d-0000-4000-8000-000000000001", oauthServerOff),
            ("GET", "/auth/v1/admin/oauth/clients?page=1&per_page=50", oauthServerOff),
            ("POST", "/auth/v1/admin/oauth/clients", oauthServerOff), ("GET", client, oauthServerOff),
            ("PUT", client, oauthServerOff), ("DELETE", client, oauthServerOff),
            ("POST", client + "/regenerate_secret", oauthServerOff),
        ]
    }()

    @Test func ssoAndTheOAuthServerAnswerSupabasesErrorsForThemBeingOff() async throws {
        try await LocalAPI.with(cli: cli) { api in
            let key = try await apiKey()
            for route in Self.offRoutes {
                let name = "\(route.method) \(route.path)"
                let body: [UInt8]? = route.method == "POST" || route.method == "PUT" ? Array("{}".utf8) : nil
                let current = try await api.request(
                    route.method, route.path,
                    headers: [
                        ("apikey", key), ("Content-Type", "application/json"), ("X-Supabase-Api-Version", "2024-01-01"),
                    ],
                    body: body)
                #expect(current.status == route.off.status, "\(name)")
                #expect(
                    try JSONValue(parsing: current.body)
                        == ["code": .string(route.off.code), "message": .string(route.off.message)], "\(name)")
                #expect(current.headers.contains { $0.0.lowercased() == "x-supabase-api-version" }, "\(name)")
                let older = try await api.request(
                    route.method, route.path, headers: [("apikey", key), ("Content-Type", "application/json")],
                    body: body)
                #expect(older.status == route.off.status, "\(name)")
                #expect(
                    try JSONValue(parsing: older.body)
                        == [
                            "code": .number(Double(route.off.status)), "error_code": .string(route.off.code),
                            "msg": .string(route.off.message),
                        ], "\(name)")
                let keyless = try await api.request(route.method, route.path, body: body)
                #expect(keyless.status == 401, "\(name)")
                #expect(try JSONValue(parsing: keyless.body)["error_code"] == "invalid_api_key", "\(name)")
            }
            // A client id that reads like this function's health route is still a client's.
            let health = try await api.request("GET", "/auth/v1/admin/oauth/clients/health")
            #expect(health.status == 401)
            try await checkSupabasesPythonClientIsRefused(api, key: key)
        }
    }

    /// `sign_in_with_sso` and `admin.oauth` through Supabase's Python client: each refused with
    /// the code and status of its feature's refusal.
    func checkSupabasesPythonClientIsRefused(_ api: LocalAPI, key: String) async throws {
        let run = try await ChildProcess.capture(
            "/usr/bin/env",
            [
                PythonTools.python,
                GatehouseCLI.repositoryRoot.appendingPathComponent("Tests/Support/Supabase/supabase_off.py").path,
                "http://127.0.0.1:\(api.port)", key,
            ])
        guard case .exited(0) = run.termination.reason else {
            Issue.record("the client run failed (supabase-auth comes from .ci/run): \(run.standardError)")
            return
        }
        let seen = try JSONValue(parsing: Array(run.standardOutput.utf8))
        let saml: JSONValue = ["code": .string(Self.samlOff.code), "status": .number(Double(Self.samlOff.status))]
        #expect(seen["ssoByDomain"] == saml && seen["ssoByProvider"] == saml)
        let oauth: JSONValue = [
            "code": .string(Self.oauthServerOff.code), "status": .number(Double(Self.oauthServerOff.status)),
        ]
        for call in ["listClients", "createClient", "getClient", "updateClient", "deleteClient", "regenerateSecret"] {
            #expect(seen[call] == oauth, "\(call)")
        }
    }
}
