/// How sessions behave, read from the environment (template.json Globals) at initialisation.
///
/// | variable | meaning | default |
/// | --- | --- | --- |
/// | `STAGE` | `dev` or `prod` | `dev` |
/// | `ISSUER` | `iss` of access tokens, the `aud` of S2S assertions | required |
/// | `ACCESS_TOKEN_TTL_SECONDS` | access token lifetime | 300 (dev), 86400 (prod) |
/// | `REFRESH_TOKEN_TTL_SECONDS` | refresh token lifetime | 3600 (dev), 31536000 (prod) |
/// | `REFRESH_ROTATION` | `every-use`, or `lifetime-fraction` | `every-use` |
/// | `REFRESH_ROTATION_FRACTION` | the share of its life after which a token rotates | 0.8 |
/// | `REFRESH_REUSE_GRACE_SECONDS` | how long a rotated-out token is still accepted once | 10 |
public struct SessionSettings: Sendable, Equatable {
    public enum Stage: String, Sendable {
        case dev, prod
    }

    /// When a refresh hands out a new refresh token.
    public enum Rotation: Sendable, Equatable {
        /// On every refresh.
        case everyUse
        /// Once this share (0 < share ≤ 1) of the token's life has passed; before, the same token
        /// stays in use.
        case lifetimeFraction(Double)
    }

    public var stage: Stage
    public var issuer: String
    public var accessTokenLifetime: Double
    public var refreshTokenLifetime: Double
    public var rotation: Rotation
    public var reuseGrace: Double

    public init(
        stage: Stage = .dev, issuer: String, accessTokenLifetime: Double = 300, refreshTokenLifetime: Double = 3600,
        rotation: Rotation = .everyUse, reuseGrace: Double = 10
    ) {
        self.stage = stage
        self.issuer = issuer
        self.accessTokenLifetime = accessTokenLifetime
        self.refreshTokenLifetime = refreshTokenLifetime
        self.rotation = rotation
        self.reuseGrace = reuseGrace
    }

    public init(environment: [String: String]) throws(SettingsError) {
        let reader = EnvironmentReader(environment: environment)
        let stageText = reader.optional("STAGE") ?? "dev"
        guard let stage = Stage(rawValue: stageText) else {
            throw .invalid("STAGE", "\"\(stageText)\" is not dev or prod")
        }
        self.stage = stage
        issuer = try reader.required("ISSUER")
        accessTokenLifetime = try reader.seconds("ACCESS_TOKEN_TTL_SECONDS", default: stage == .dev ? 300 : 86400)
        refreshTokenLifetime = try reader.seconds(
            "REFRESH_TOKEN_TTL_SECONDS", default: stage == .dev ? 3600 : 31_536_000)
        guard accessTokenLifetime > 0 else { throw .invalid("ACCESS_TOKEN_TTL_SECONDS", "must be more than 0") }
        guard refreshTokenLifetime > 0 else { throw .invalid("REFRESH_TOKEN_TTL_SECONDS", "must be more than 0") }
        switch reader.optional("REFRESH_ROTATION") ?? "every-use" {
        case "every-use": rotation = .everyUse
        case "lifetime-fraction":
            let text = reader.optional("REFRESH_ROTATION_FRACTION") ?? "0.8"
            guard let fraction = Double(text), fraction > 0, fraction <= 1 else {
                throw .invalid("REFRESH_ROTATION_FRACTION", "\"\(text)\" is not a number above 0 and at most 1")
            }
            rotation = .lifetimeFraction(fraction)
        case let other:
            throw .invalid("REFRESH_ROTATION", "\"\(other)\" is not every-use or lifetime-fraction")
        }
        reuseGrace = try reader.seconds("REFRESH_REUSE_GRACE_SECONDS", default: 10)
    }
}
