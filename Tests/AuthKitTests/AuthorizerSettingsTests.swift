import JOSE
import Testing

@testable import AuthKit

struct AuthorizerSettingsTests {
    let required = [
        "JWKS_URL": "https://auth.example.com/.well-known/jwks.json", "JWT_ISSUER": "https://auth.example.com",
        "JWT_AUDIENCE": "ios, web",
    ]

    @Test func defaultsApplyWhenOnlyTheRequiredSettingsAreGiven() throws {
        let settings = try AuthorizerSettings(environment: required)
        #expect(settings.audiences == ["ios", "web"])
        #expect(settings.algorithms == [.rs256])
        #expect(settings.clockSkew == 60)
        #expect(settings.requiredScopes.isEmpty)
        #expect(settings.penaltyWindow == 10)
        #expect(settings.maximumKeyAge == 600)
        #expect(settings.fetchTimeout == 3)
    }

    @Test func theFetchTimeoutIsWholeSecondsFromOne() throws {
        let longer = try AuthorizerSettings(environment: required.merging(["JWKS_FETCH_TIMEOUT_SECONDS": "30"]) { $1 })
        #expect(longer.fetchTimeout == 30)
        for value in ["0", "-1", "1.5", "soon"] {
            #expect(throws: SettingsError.self, "\(value)") {
                try AuthorizerSettings(environment: required.merging(["JWKS_FETCH_TIMEOUT_SECONDS": value]) { $1 })
            }
        }
    }

    @Test func eachRequiredSettingIsNamedWhenMissing() {
        for name in required.keys {
            var environment = required
            environment[name] = "  "
            #expect(throws: SettingsError.missing(name)) { try AuthorizerSettings(environment: environment) }
        }
    }

    @Test func noneAndHMACCannotBeConfigured() {
        for value in ["none", "HS256", "RS256,HS512"] {
            #expect(throws: SettingsError.self) {
                try AuthorizerSettings(environment: required.merging(["JWT_ALGORITHMS": value]) { $1 })
            }
        }
    }

    @Test func theBearerSchemeIsCaseInsensitiveAndNothingElseIsAccepted() {
        #expect(BearerToken.parse("Bearer abc") == "abc")
        #expect(BearerToken.parse("bEaReR   abc") == "abc")
        for header in [nil, "", "Bearer", "Bearer ", "Basic abc", "abc", "Token abc"] {
            #expect(BearerToken.parse(header) == nil, "\(header ?? "nil")")
        }
    }
}
