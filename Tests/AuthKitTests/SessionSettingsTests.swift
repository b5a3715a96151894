import AuthKit
import Testing

struct SessionSettingsTests {
    @Test func devAndProdDefaults() throws {
        let dev = try SessionSettings(environment: ["ISSUER": "http://127.0.0.1:3000"])
        #expect(dev == SessionSettings(issuer: "http://127.0.0.1:3000"))
        #expect(dev.accessTokenLifetime == 300)
        #expect(dev.refreshTokenLifetime == 3600)
        #expect(dev.rotation == .everyUse)
        #expect(dev.reuseGrace == 10)
        let prod = try SessionSettings(environment: ["ISSUER": "https://auth.example.com", "STAGE": "prod"])
        #expect(dev.maximumSessionLifetime == 86400)
        #expect(prod.accessTokenLifetime == 3600)
        #expect(prod.refreshTokenLifetime == 31_536_000)
        #expect(prod.maximumSessionLifetime == 90 * 86400)
        let fraction = try SessionSettings(environment: [
            "ISSUER": "x", "REFRESH_ROTATION": "lifetime-fraction", "ACCESS_TOKEN_TTL_SECONDS": "60",
        ])
        #expect(fraction.rotation == .lifetimeFraction(0.8))
        #expect(fraction.accessTokenLifetime == 60)
    }

    /// Each bad setting fails the cold start with an error naming it.
    @Test(
        arguments: [
            ([:], SettingsError.missing("ISSUER")),
            (["STAGE": "staging"], .invalid("STAGE", #""staging" is not dev or prod"#)),
            (["ACCESS_TOKEN_TTL_SECONDS": "0"], .invalid("ACCESS_TOKEN_TTL_SECONDS", "must be more than 0")),
            (
                ["REFRESH_TOKEN_TTL_SECONDS": "-5"],
                .invalid("REFRESH_TOKEN_TTL_SECONDS", #""-5" is not a whole number of seconds"#)
            ),
            (
                ["REFRESH_ROTATION": "never"],
                .invalid("REFRESH_ROTATION", #""never" is not every-use or lifetime-fraction"#)
            ),
            (
                ["REFRESH_ROTATION": "lifetime-fraction", "REFRESH_ROTATION_FRACTION": "1.5"],
                .invalid("REFRESH_ROTATION_FRACTION", #""1.5" is not a number above 0 and at most 1"#)
            ),
            (
                ["SESSION_MAX_LIFETIME_SECONDS": "0"],
                .invalid("SESSION_MAX_LIFETIME_SECONDS", "must be more than 0")
            ),
            (
                ["REFRESH_REUSE_GRACE_SECONDS": "ten"],
                .invalid("REFRESH_REUSE_GRACE_SECONDS", #""ten" is not a whole number of seconds"#)
            ),
        ] as [([String: String], SettingsError)])
    func aBadSettingIsNamed(overrides: [String: String], error: SettingsError) {
        var environment = overrides
        if error != .missing("ISSUER") { environment["ISSUER"] = "http://127.0.0.1:3000" }
        #expect(throws: error) { try SessionSettings(environment: environment) }
    }
}
