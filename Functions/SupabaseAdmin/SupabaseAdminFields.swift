import AuthKit
import GatehouseJSON
import HTTPEdge
import SupabaseEdge

/// Supabase's `AdminUserAttributes` read from a request body.
enum SupabaseAdminFields {
    /// `email`, `phone`, `password`, `email_confirm`, `phone_confirm`, `user_metadata`,
    /// `app_metadata`, `ban_duration` (`none` lifts a ban; else a Go duration such as `24h`).
    /// `password_hash`, `id`, `role` and `nonce` are refused by name.
    static func parse(_ request: HTTPRequest) throws -> AdminUserFields {
        let body = try JSONRequestBody.supabase(request)
        for refused in ["password_hash", "id", "role", "nonce"] {
            switch body.object[refused] {
            case nil, .null?: continue
            default: throw SupabaseError.featureDisabled("\(refused) is not supported by Gatehouse's admin API")
            }
        }
        return AdminUserFields(
            email: try body.optionalString("email", maximumLength: 320),
            phone: try body.optionalString("phone", maximumLength: 32),
            password: try body.optionalString("password", maximumLength: 1024),
            emailConfirm: try body.object["email_confirm"].map { _ in try body.flag("email_confirm") },
            phoneConfirm: try body.object["phone_confirm"].map { _ in try body.flag("phone_confirm") },
            userMetadata: try body.optionalObject("user_metadata"),
            appMetadata: try body.optionalObject("app_metadata"),
            ban: try ban(body.optionalString("ban_duration", maximumLength: 32)))
    }

    static func ban(_ text: String?) throws -> AdminUserFields.Ban? {
        guard let text else { return nil }
        if text == "none" { return .lift }
        guard let seconds = GoDuration.seconds(text), seconds > 0 else {
            throw SupabaseError.validation("invalid format for ban duration: \(text.prefix(32))")
        }
        return .forSeconds(seconds)
    }

    /// `DELETE /admin/users/{id}`'s `should_soft_delete` (an empty body: false).
    static func softDelete(_ request: HTTPRequest) throws -> Bool {
        guard let body = request.body, !body.isEmpty else { return false }
        return try JSONRequestBody.supabase(request).flag("should_soft_delete")
    }
}
