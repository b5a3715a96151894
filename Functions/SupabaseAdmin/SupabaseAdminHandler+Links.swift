import AuthKit
import GatehouseJSON
import HTTPEdge
import LambdaRuntime
import SupabaseEdge

extension SupabaseAdminHandler {
    /// `POST /admin/generate_link` `{type, email, data?}` (`?redirect_to=`): the link recorded and
    /// answered, not mailed (`UserAdmin.generateLink`), in Supabase's shape: the user's members
    /// and `action_link`, `email_otp`, `hashed_token` (what `/verify` takes as `token_hash`),
    /// `verification_type`, `redirect_to`. The link is for the key's app.
    func generateLink(_ request: HTTPRequest, admin: UserAdmin, app: App) async throws -> HTTPResponse {
        let body = try JSONRequestBody.supabase(request)
        let name = try body.string("type", maximumLength: 32)
        guard let type = UserAdmin.LinkType(rawValue: name) else {
            throw SupabaseError.validation("Invalid email link type")
        }
        let (user, link) = try await admin.generateLink(
            type, email: try body.string("email", maximumLength: 320), app: app, redirectTo: request.redirectTo,
            metadata: try body.optionalObject("data"), links: links, magicLinks: magicLinks)
        guard case .object(var answer) = SupabaseJSON.user(user) else { return .json(200, SupabaseJSON.user(user)) }
        answer["action_link"] = .string(link.link)
        answer["email_otp"] = .string(link.code ?? "")
        answer["hashed_token"] = .string(link.token)
        // An invitation's link confirms a sign-up; `/verify` takes it as `invite` too.
        answer["verification_type"] = .string(type == .invite ? "invite" : link.type)
        answer["redirect_to"] = .string(link.redirectTo)
        return .json(200, .object(answer), headers: ["cache-control": "no-store"])
    }

    /// `POST /invite` (supabase-py) or `/admin/invite` (supabase-swift) `{email, data?}`
    /// (`?redirect_to=`): the invited user, its link mailed after the answer (`UserAdmin.invite`).
    func invite(_ request: HTTPRequest, admin: UserAdmin, app: App) async throws -> HTTPResponse {
        let body = try JSONRequestBody.supabase(request)
        let (user, mail) = try await admin.invite(
            email: try body.string("email", maximumLength: 320), app: app, redirectTo: request.redirectTo,
            metadata: try body.optionalObject("data"), links: links)
        try await AfterResponse.later(mail)
        return .json(200, SupabaseJSON.user(user))
    }
}
