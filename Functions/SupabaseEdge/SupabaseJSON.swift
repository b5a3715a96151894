import AuthKit
import GatehouseJSON
import LambdaRuntime

/// Gatehouse's users and sessions in Supabase Auth's JSON.
public enum SupabaseJSON {
    /// A user as Supabase answers one: `id`, `aud` and `role` (`authenticated`), `email`,
    /// `phone` (empty strings when absent, as Supabase writes them), the confirmation and
    /// sign-in times, `app_metadata` (`provider`, `providers`, over what an import kept),
    /// `user_metadata`, `identities`
    /// (one per sign-in provider), `created_at`, `updated_at`, `banned_until` while banned
    /// (`UserAdmin.ban`). `confirmationSentAt` (ms) for the
    /// answer to a sign-up.
    public static func user(_ user: User, confirmationSentAt: Double? = nil, factors: [Factor] = []) -> JSONValue {
        let providers = user.providers.keys.sorted()
        let phoneConfirmed = user.phoneIsPending ? nil : user.phone.map { _ in user.phoneConfirmedAt ?? user.createdAt }
        var object: [String: JSONValue] = [
            "id": .string(user.id), "aud": "authenticated", "role": "authenticated",
            "email": .string(user.email ?? ""), "phone": .string(user.phone ?? ""),
            "email_confirmed_at": time(user.emailConfirmedAt), "phone_confirmed_at": time(phoneConfirmed),
            "confirmed_at": time(user.emailConfirmedAt ?? phoneConfirmed), "last_sign_in_at": time(user.lastSignInAt),
            "app_metadata": .object(user.appMetadataWithProviders),
            "user_metadata": .object(user.metadata),
            "identities": .array(providers.map { identity(of: user, provider: $0) }),
            "created_at": time(user.createdAt), "updated_at": time(user.updatedAt),
            "is_anonymous": .bool(user.isAnonymous),
        ]
        if let confirmationSentAt { object["confirmation_sent_at"] = time(confirmationSentAt) }
        // Absent without a ban, as supabase/auth's `banned_until,omitempty`.
        if let bannedUntil = user.bannedUntil { object["banned_until"] = time(bannedUntil) }
        // Absent when empty, as supabase/auth's `factors,omitempty`.
        if !factors.isEmpty { object["factors"] = .array(factors.map(factor)) }
        return .object(object)
    }

    /// A factor as the user object lists it (`listFactors` reads these); `phone` is a phone
    /// factor's number, empty for another kind (as supabase/auth writes it).
    public static func factor(_ factor: Factor) -> JSONValue {
        [
            "id": .string(factor.id), "friendly_name": .string(factor.friendlyName),
            "factor_type": .string(factor.type), "status": .string(factor.status), "phone": .string(factor.phone ?? ""),
            "created_at": time(factor.createdAt), "updated_at": time(factor.updatedAt),
        ]
    }

    /// A session: `{access_token, token_type, expires_in, expires_at, refresh_token, user}`
    /// (`expires_at` in seconds since 1970; `expires_in` the access token's `lifetime`).
    public static func session(
        _ session: SessionResponse, user: User, lifetime: Double, factors: [Factor] = []
    ) -> JSONValue {
        [
            "access_token": .string(session.accessToken), "token_type": "bearer", "expires_in": .number(lifetime),
            "expires_at": .number((session.accessTokenExpiresAt / 1000).rounded(.down)),
            "refresh_token": .string(session.refreshToken),
            "user": SupabaseJSON.user(user, factors: factors),
        ]
    }

    /// The session as a URL fragment (`GET /verify`'s redirect, with the link's `type`; the
    /// implicit flow's return from `/authorize`, without).
    public static func fragment(_ session: SessionResponse, lifetime: Double, type: String?) -> String {
        FormEncoding.encode(
            [
                ("access_token", session.accessToken),
                ("expires_at", String(Int((session.accessTokenExpiresAt / 1000).rounded(.down)))),
                ("expires_in", String(Int(lifetime))), ("refresh_token", session.refreshToken),
                ("token_type", "bearer"),
            ] + (type.map { [("type", $0)] } ?? []))
    }

    /// `GET /settings`'s answer: what Supabase's API offers here. Email sign-up (with
    /// confirmation: `mailer_autoconfirm` false), password, link and code sign-in; Apple's ID
    /// tokens when `apple` (the functions have `APPLE_CLIENT_IDS`); `google` (the OIDC provider's
    /// ID tokens and `/authorize`) when the functions have `OIDC_ISSUER`; no other provider,
    /// SAML through this API yet; `phone` when phone codes are sent
    /// (`smsDelivery`, the template's `SmsDelivery`), which is also its `sms_provider`.
    /// `anonymous` when anonymous sign-in is on (`ANONYMOUS_USERS`).
    public static func settings(
        apple: Bool, google: Bool = false, smsDelivery: String? = nil, anonymous: Bool = false
    ) -> JSONValue {
        guard case .object(var answer) = settings, case .object(var external)? = answer["external"] else {
            return settings
        }
        external["apple"] = .bool(apple)
        external["google"] = .bool(google)
        external["phone"] = .bool(smsDelivery != nil)
        external["anonymous_users"] = .bool(anonymous)
        answer["sms_provider"] = .string(smsDelivery ?? "")
        answer["external"] = .object(external)
        return .object(answer)
    }

    /// `GET /health`'s answer, in Supabase's shape (`{version, name, description}`).
    public static let health: JSONValue = [
        "version": "gatehouse", "name": "Gatehouse",
        "description": "Gatehouse serves Supabase Auth's API from AWS Lambda functions",
    ]

    private static let settings: JSONValue = [
        "external": .object(
            Dictionary(
                uniqueKeysWithValues: [
                    "anonymous_users", "apple", "azure", "bitbucket", "discord", "facebook", "figma", "github",
                    "gitlab", "google", "keycloak", "kakao", "linkedin", "linkedin_oidc", "notion", "phone",
                    "slack", "slack_oidc", "spotify", "twitch", "twitter", "workos", "zoom",
                ].map { ($0, JSONValue.bool(false)) } + [("email", .bool(true))])),
        "disable_signup": false, "mailer_autoconfirm": false, "phone_autoconfirm": false, "sms_provider": "",
        "saml_enabled": false,
    ]

    private static func identity(of user: User, provider: String) -> JSONValue {
        let subject = provider == "email" ? user.id : user.providers[provider] ?? user.id
        var data: [String: JSONValue] = ["sub": .string(subject)]
        if let email = user.email {
            data["email"] = .string(email)
            data["email_verified"] = .bool(user.emailConfirmedAt != nil)
        }
        return [
            "identity_id": .string(identityID(of: user, entry: provider)),
            "id": .string(subject), "user_id": .string(user.id), "identity_data": .object(data),
            "provider": .string(provider), "last_sign_in_at": time(user.lastSignInAt),
            "created_at": time(user.createdAt), "updated_at": time(user.updatedAt),
        ]
    }

    /// The `identity_id` of the identity `user.providers` records under `entry`: stable, derived
    /// from the user and the entry (Gatehouse keeps no identity rows), UUID-shaped.
    public static func identityID(of user: User, entry: String) -> String {
        uuidShaped(SHA256Hex.of(Array("\(user.id)#\(entry)".utf8)))
    }

    /// The first 32 hex digits of `hex` grouped 8-4-4-4-12, as Supabase's clients decode ids.
    static func uuidShaped(_ hex: String) -> String {
        let digits = Array(hex.prefix(32))
        return [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(digits[$0]) }.joined(separator: "-")
    }

    private static func time(_ milliseconds: Double?) -> JSONValue {
        milliseconds.map { .string(UTCTimestamp.string(milliseconds: $0)) } ?? .null
    }
}
