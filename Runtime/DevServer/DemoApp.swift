import AuthKit
import Emulator
import Foundation
import GatehouseJSON
import Synchronization

/// The `demo` app's own side, served by `gatehouse start-api` so the hosted sign-in can be
/// tried end to end in a browser: `/app/auth/callback` exchanges the code through the real
/// `Exchange` function, `/app/` shows the signed-in user from `GET /users/me` (refreshing through
/// `Refresh` when the access token has expired), and `/app/auth/logout` ends the session through
/// `Logout`; the signed-in page offers "Add a passkey" (`DemoPasskeys`, through Supabase's
/// registration routes with the session's token). A dev route, not a route of the template; it
/// is asked only when no template route matches.
public final class DemoApp: LocalRoutes {
    /// The app whose side this is.
    static let appID = "demo"
    static let cookie = "gh_demo_session"

    let baseURL: String
    private let sessions = Mutex<[String: DemoSession]>([:])
    private let passkeys: DemoPasskeys

    /// The demo app of the local API at `baseURL`, whose publishable key (Supabase's `apikey`,
    /// for its passkeys' registration) is `publishableKey`.
    public init(baseURL: String, publishableKey: String? = nil) {
        self.baseURL = baseURL
        passkeys = DemoPasskeys(origin: BrowserPost.origin(of: baseURL), publishableKey: publishableKey)
    }

    public var routeDescriptions: [String] {
        [
            "GET \(baseURL)/app/", "GET \(baseURL)/app/auth/callback", "POST \(baseURL)/app/auth/logout",
            "POST \(baseURL)/app/passkeys/options", "POST \(baseURL)/app/passkeys/verify",
        ]
    }

    public func answer(_ apiRequest: APIRequest, gateway: LocalAPIGateway) async -> APIResponse? {
        let request = DevRequest(apiRequest)
        switch (request.method, request.path) {
        case ("GET", "/app"): return await home(request, gateway: gateway)
        case ("GET", "/app/auth/callback"): return await callback(request, gateway: gateway)
        case ("POST", "/app/auth/logout"): return await logout(request, gateway: gateway)
        case ("POST", let path) where DemoPasskeys.serves(path):
            let session = request.cookie(Self.cookie).flatMap { id in sessions.withLock { $0[id] } }
            return await passkeys.answer(
                request, body: apiRequest.body, accessToken: session?.accessToken, gateway: gateway)
        default: return nil
        }
    }

    /// The code from the sign-in, exchanged; the session's cookie set; on to `/app/`.
    private func callback(_ request: DevRequest, gateway: LocalAPIGateway) async -> APIResponse {
        guard let code = request.query["code"] else {
            let error = request.query["error"] ?? "no code"
            return DemoPages.failed("The sign-in did not finish: \(error).")
        }
        let answer = await DemoCalls.exchange(code: code, app: Self.appID, gateway: gateway)
        guard answer.status == 200, let tokens = DemoCalls.tokens(answer), let isNew = DemoCalls.isNewUser(answer)
        else { return DemoPages.failed("Exchange refused the code (\(answer.status)).") }
        let id = RandomToken.urlSafe(byteCount: 32)
        sessions.withLock {
            $0[id] = DemoSession(accessToken: tokens.access, refreshToken: tokens.refresh, isNewUser: isNew)
        }
        return DevPage.redirect("/app/", status: 303, cookies: [cookie(id, maxAge: 3600)])
    }

    /// Who is signed in, from `GET /users/me`; a sign-in link when nobody is.
    private func home(_ request: DevRequest, gateway: LocalAPIGateway) async -> APIResponse {
        guard let id = request.cookie(Self.cookie), var session = sessions.withLock({ $0[id] }) else {
            return DemoPages.signedOut()
        }
        var answer = await DemoCalls.me(accessToken: session.accessToken, gateway: gateway)
        if answer.status == 401 || answer.status == 403 {
            // The access token expired: rotate the refresh token, as an app would, and ask again.
            let refreshed = await DemoCalls.refresh(session.refreshToken, gateway: gateway)
            guard refreshed.status == 200, let tokens = DemoCalls.tokens(refreshed) else {
                sessions.withLock { _ = $0.removeValue(forKey: id) }
                return DemoPages.signedOut(cookies: [cookie("", maxAge: 0)])
            }
            session.accessToken = tokens.access
            session.refreshToken = tokens.refresh
            sessions.withLock { [session] in $0[id] = session }
            answer = await DemoCalls.me(accessToken: session.accessToken, gateway: gateway)
        }
        guard answer.status == 200, let user = try? JSONValue(parsing: answer.body) else {
            return DemoPages.failed("GET /users/me answered \(answer.status).")
        }
        return DemoPages.signedIn(
            user, isNewUser: session.isNewUser, assurance: DemoCalls.claim("aal", of: session.accessToken))
    }

    /// The session ended through `Logout`, the cookie cleared.
    private func logout(_ request: DevRequest, gateway: LocalAPIGateway) async -> APIResponse {
        if let id = request.cookie(Self.cookie), let session = sessions.withLock({ $0.removeValue(forKey: id) }) {
            _ = await DemoCalls.logout(session.refreshToken, gateway: gateway)
        }
        return DevPage.redirect("/app/", status: 303, cookies: [cookie("", maxAge: 0)])
    }

    private func cookie(_ value: String, maxAge: Int) -> String {
        let secure = baseURL.hasPrefix("https://") ? " Secure;" : ""
        return "\(Self.cookie)=\(value); HttpOnly;\(secure) SameSite=Lax; Max-Age=\(maxAge); Path=/app"
    }
}
