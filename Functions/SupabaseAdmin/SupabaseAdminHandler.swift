import AuthKit
import GatehouseJSON
import HTTPEdge
import LambdaRuntime
import Logging
import StoreCore
import SupabaseEdge

/// Supabase's admin API (`auth.admin`), with an app's server key as `apikey` and bearer
/// (`ServerKeys.authenticate`: never from a browser, limited per key):
/// - `GET /auth/v1/admin/users?page=&per_page=`: `{users, aud}`, with `X-Total-Count` and `Link`;
/// - `POST /auth/v1/admin/users`: a new user (`AdminUserFields`);
/// - `GET`/`PUT`/`DELETE /auth/v1/admin/users/{id}`: the user, changed (a `ban_duration` ends
///   its sessions), deleted (`should_soft_delete` refused by name);
/// - `GET /auth/v1/admin/users/{id}/factors`, `DELETE …/factors/{factorId}`;
/// - `GET /auth/v1/admin/users/{id}/passkeys`, `DELETE …/passkeys/{passkeyId}` (204);
/// - `POST /auth/v1/admin/generate_link` (`magiclink`, `recovery`, `invite`; other types
///   refused by name) and `POST /auth/v1/invite` (supabase-swift's `/admin/invite`): links of
///   the key's app that `/auth/v1/verify` takes.
/// - `GET /auth/v1/admin/audit?user_id=&action=&since=&until=&limit=&cursor=`: the audit log,
///   newest first, `{"events": [...], "next": "..."}` (`AuditQuery`).
/// Each operation is made by the key's id (`AdminActor`), which its log line names; the key
/// itself is never logged.
struct SupabaseAdminHandler: SupabaseHandler {
    let store: any KeyValueStore
    let clock: any StoreClock
    let hasher: PasswordHasher
    let policy: PasswordPolicy
    /// The account links (`recovery`, an invitation's) it records and mails.
    let links: EmailTokens
    /// The magic links it records.
    let magicLinks: MagicLinks
    /// Users' passkeys (their removal ends the sessions they signed in).
    let passkeys: Passkeys
    /// Where the admin actions are recorded (with the key's id) and `GET /admin/audit` reads.
    let audit: AuditLog

    func handle(_ request: HTTPRequest, context: LambdaContext) async throws -> HTTPResponse {
        let key = try await ServerKeys(store: store, clock: clock).authenticate(
            apikey: request.header("apikey"), authorization: request.header("authorization"),
            origin: request.header("origin"),
            fetchMetadata: ["sec-fetch-site", "sec-fetch-mode", "sec-fetch-dest"].lazy.compactMap(request.header).first,
            sourceIP: request.sourceIP)
        let admin = UserAdmin(
            store: store, clock: clock, actor: .serverKey(id: key.id, app: key.app), hasher: hasher, audit: audit)
        let route = Self.route(of: request.path)
        let response = try await answer(request, route: route, admin: admin)
        context.logger.info(
            "admin request",
            metadata: [
                "keyId": .string(key.id), "app": .string(key.app), "method": .string(request.method),
                "route": .string(route.prefix(2).joined(separator: "/")),
            ])
        return response
    }

    /// The path's segments after `/auth/v1/`.
    static func route(of path: String) -> [String] {
        let segments = path.split(separator: "/").map(String.init)
        guard let start = segments.firstIndex(of: "v1") else { return segments }
        return Array(segments[(start + 1)...])
    }

    private func answer(_ request: HTTPRequest, route: [String], admin: UserAdmin) async throws -> HTTPResponse {
        switch (request.method, SupabaseAdminRoute(route)) {
        case ("GET", .users): return try await list(request, admin: admin)
        case ("POST", .users):
            let fields = try SupabaseAdminFields.parse(request)
            return .json(200, SupabaseJSON.user(try await admin.create(fields, policy: policy)))
        case ("GET", .user(let id)):
            let user = try await admin.user(id: id)
            return .json(200, SupabaseJSON.user(user, factors: try await admin.factors(id: id)))
        case ("PUT", .user(let id)):
            let fields = try SupabaseAdminFields.parse(request)
            return .json(200, SupabaseJSON.user(try await admin.updateUser(id: id, fields, policy: policy)))
        case ("DELETE", .user(let id)):
            try await admin.delete(id: id, soft: try SupabaseAdminFields.softDelete(request))
            return .json(200, [:])
        case ("GET", .factors(let id)):
            return .json(200, .array(try await admin.factors(id: id).map(SupabaseJSON.factor)))
        case ("DELETE", .factor(let id, let factorID)):
            return .json(200, SupabaseJSON.factor(try await admin.deleteFactor(factorID, userID: id)))
        case ("GET", .passkeys(let id)):
            return .json(200, .array(try await admin.passkeys(id: id, in: passkeys).map(SupabaseJSON.passkey)))
        case ("DELETE", .passkey(let id, let passkeyID)):
            try await admin.deletePasskey(passkeyID, userID: id, in: passkeys)
            return HTTPResponse(statusCode: 204, headers: ["cache-control": "no-store"])
        case ("POST", .generateLink):
            return try await generateLink(request, admin: admin, app: try await app(of: admin))
        case ("POST", .invite): return try await invite(request, admin: admin, app: try await app(of: admin))
        case ("GET", .audit):
            return .json(200, try await audit.events(AuditQuery(queryParameters: request.queryParameters)).json)
        default:
            throw SupabaseError(status: 404, code: "not_found", message: "No such admin route")
        }
    }

    /// The app of the key that makes `admin`'s operations: where its links return.
    private func app(of admin: UserAdmin) async throws -> App {
        guard case .serverKey(_, let id) = admin.actor, let app = try await AppRegistry(store: store).app(id: id) else {
            throw SupabaseError.invalidAPIKey
        }
        return app
    }

    /// `GET /admin/users`: a page of users, newest first, with Supabase's paging headers.
    private func list(_ request: HTTPRequest, admin: UserAdmin) async throws -> HTTPResponse {
        let query = request.queryParameters
        // supabase-swift sends both, empty when not set.
        let text = { (name: String, absent: String) in query[name].flatMap { $0.isEmpty ? nil : $0 } ?? absent }
        guard let page = Int(text("page", "1")), let perPage = Int(text("per_page", "50")) else {
            throw SupabaseError.validation("Bad Pagination Parameters")
        }
        let (users, total) = try await admin.list(page: page, perPage: perPage)
        return .json(
            200, ["users": .array(users.map { SupabaseJSON.user($0) }), "aud": "authenticated"],
            headers: [
                "x-total-count": String(total), "link": Self.links(page: page, perPage: perPage, total: total),
                "cache-control": "no-store",
            ])
    }

    /// Supabase's `Link` header: the next page (when there is one) and the last.
    static func links(page: Int, perPage: Int, total: Int) -> String {
        let pages = max(1, (total + perPage - 1) / perPage)
        let url = { (page: Int) in "</admin/users?page=\(page)&per_page=\(perPage)>" }
        return (pages > page ? "\(url(page + 1)); rel=\"next\", " : "") + "\(url(pages)); rel=\"last\""
    }
}
