/// How sessions behave, read from the environment (template.json Globals) at initialisation.
///
/// | variable | meaning | default |
/// | --- | --- | --- |
/// | `STAGE` | `dev` or `prod` | `dev` |
/// | `ISSUER` | `iss` of access tokens, the `aud` of S2S assertions | required |
/// | `ACCESS_TOKEN_TTL_SECONDS` | access token lifetime | 300 (dev), 3600 (prod) |
/// | `REFRESH_TOKEN_TTL_SECONDS` | refresh token lifetime | 3600 (dev), 31536000 (prod; the session's own limit cuts it) |
/// | `SESSION_MAX_LIFETIME_SECONDS` | a session's absolute lifetime, however active | 86400 (dev), 7776000 (prod, 90 days) |
/// | `REFRESH_ROTATION` | `every-use`, or `lifetime-fraction` | `every-use` |
/// | `REFRESH_ROTATION_FRACTION` | the share of its life after which a token rotates | 0.8 |
/// | `REFRESH_REUSE_GRACE_SECONDS` | how long a rotated-out token is still accepted once | 10 |
public struct SessionSettings: Sendable, Equatable {
    public enum Stage: String, Sendable {
        case dev, prod

        /// `STAGE`, `dev` when unset.
        init(_ reader: EnvironmentReader) throws(SettingsError) {
            let text = reader.optional("STAGE") ?? "dev"
            guard let stage = Stage(rawValue: text) else { throw .invalid("STAGE", "\"\(text)\" is not dev or prod") }
            self = stage
        }
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
    /// Seconds from a session's start after which no refresh succeeds, however active it is.
    public var maximumSessionLifetime: Double

    public init(
        stage: Stage = .dev, issuer: String, accessTokenLifetime: Double = 300, refreshTokenLifetime: Double = 3600,
        rotation: Rotation = .everyUse, reuseGrace: Double = 10, maximumSessionLifetime: Double = 86400
    ) {
        self.stage = stage
        self.issuer = issuer
        self.accessTokenLifetime = accessTokenLifetime
        self.refreshTokenLifetime = refreshTokenLifetime
        self.rotation = rotation
        self.reuseGrace = reuseGrace
        self.maximumSessionLifetime = maximumSessionLifetime
    }

    public init(environment: [String: String]) throws(SettingsError) {
        let reader = EnvironmentReader(environment: environment)
        let stage = try Stage(reader)
        self.stage = stage
        issuer = try reader.required("ISSUER")
        // An access token cannot be recalled from a client, only refused by an authorizer that
        // checks its session: an hour in production bounds what a stolen one is worth elsewhere.
        accessTokenLifetime = try reader.seconds("ACCESS_TOKEN_TTL_SECONDS", default: stage == .dev ? 300 : 3600)
        refreshTokenLifetime = try reader.seconds(
            "REFRESH_TOKEN_TTL_SECONDS", default: stage == .dev ? 3600 : 31_536_000)
        maximumSessionLifetime = try reader.seconds(
            "SESSION_MAX_LIFETIME_SECONDS", default: stage == .dev ? 86400 : 7_776_000)
        guard maximumSessionLifetime > 0 else {
            throw .invalid("SESSION_MAX_LIFETIME_SECONDS", "must be more than 0")
        }
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
