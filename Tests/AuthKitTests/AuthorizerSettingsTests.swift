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

    /// Without `JWT_AUDIENCE`, the audience is any registered app: the `Apps` table is read, and
    /// the verifier leaves `aud` to that check. A fixed list, when given, wins.
    @Test func withoutAFixedAudienceTheRegisteredAppsAreTheAudience() throws {
        var environment = required
        environment["JWT_AUDIENCE"] = nil
        environment["TABLE_Apps"] = "gatehouse-Apps"
        let settings = try AuthorizerSettings(environment: environment)
        #expect(settings.checksRegisteredApps)
        #expect(settings.audiences.isEmpty)
        #expect(!settings.verifier.checksAudience)
        #expect(settings.appCacheSeconds == 30)
        environment["JWT_AUDIENCE"] = "ios"
        let fixed = try AuthorizerSettings(environment: environment)
        #expect(!fixed.checksRegisteredApps)
        #expect(fixed.verifier.checksAudience)
        #expect(fixed.audiences == ["ios"])
        environment["TABLE_Apps"] = nil
        environment["JWT_AUDIENCE"] = nil
        #expect(throws: SettingsError.missing("JWT_AUDIENCE")) { try AuthorizerSettings(environment: environment) }
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
        for name in ["JWT_ISSUER", "JWT_AUDIENCE"] {
            var environment = required
            environment[name] = "  "
            #expect(throws: SettingsError.missing(name)) { try AuthorizerSettings(environment: environment) }
        }
    }

    /// Gatehouse's own issuer (`ISSUER`, which every function gets, deployed from the API's URL)
    /// is the default, and its keys are where Gatehouse serves them: the Authorizer follows the
    /// same rule as the functions that mint its tokens.
    @Test func theIssuerAndItsKeysDefaultToGatehousesOwn() throws {
        var environment = required
        environment["JWT_ISSUER"] = nil
        environment["JWKS_URL"] = nil
        environment["ISSUER"] = "https://abc123.execute-api.eu-west-1.amazonaws.com"
        environment["STAGE"] = "prod"
        let settings = try AuthorizerSettings(environment: environment)
        #expect(settings.issuer == "https://abc123.execute-api.eu-west-1.amazonaws.com")
        #expect(settings.jwksURL == "https://abc123.execute-api.eu-west-1.amazonaws.com/.well-known/jwks.json")
        environment["JWT_ISSUER"] = "https://auth.example.com"
        #expect(try AuthorizerSettings(environment: environment).issuer == "https://auth.example.com")
        environment["JWT_ISSUER"] = nil
        environment["ISSUER"] = "http://127.0.0.1:3000"
        #expect(throws: SettingsError.self, "plain http keys in prod") {
            try AuthorizerSettings(environment: environment)
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
