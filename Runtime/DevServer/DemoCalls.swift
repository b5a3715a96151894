import Emulator
import GatehouseJSON
import JOSE

/// The demo app's calls to Gatehouse's routes, made through the local gateway as any client's
/// requests are: each runs the template's real function and has its access-log line.
enum DemoCalls {
    static func exchange(code: String, app: String, gateway: LocalAPIGateway) async -> APIResponse {
        await post("/auth/exchange", ["code": .string(code), "app": .string(app)], gateway: gateway)
    }

    static func refresh(_ refreshToken: String, gateway: LocalAPIGateway) async -> APIResponse {
        await post("/auth/refresh", ["refreshToken": .string(refreshToken)], gateway: gateway)
    }

    static func logout(_ refreshToken: String, gateway: LocalAPIGateway) async -> APIResponse {
        await post("/auth/logout", ["refreshToken": .string(refreshToken)], gateway: gateway)
    }

    static func me(accessToken: String, gateway: LocalAPIGateway) async -> APIResponse {
        await gateway.handle(
            APIRequest(method: "GET", rawPath: "/users/me", headers: [("authorization", "Bearer \(accessToken)")]))
    }

    /// The access and refresh tokens of an `Exchange` or `Refresh` answer.
    static func tokens(_ answer: APIResponse) -> (access: String, refresh: String)? {
        guard let body = try? JSONValue(parsing: answer.body), let access = body["accessToken"]?.stringValue,
            let refresh = body["refreshToken"]?.stringValue
        else { return nil }
        return (access, refresh)
    }

    /// `user.isNewUser` of an `Exchange` answer.
    static func isNewUser(_ answer: APIResponse) -> Bool? {
        guard case .bool(let isNew)? = (try? JSONValue(parsing: answer.body))?["user"]?["isNewUser"] else { return nil }
        return isNew
    }

    /// The string claim `name` of `accessToken`, read, not checked: the demo app shows its own
    /// token's `aal`.
    static func claim(_ name: String, of accessToken: String) -> String? {
        let parts = accessToken.split(separator: ".")
        guard parts.count == 3, let payload = Base64URL.decode(parts[1]) else { return nil }
        return (try? JSONValue(parsing: payload))?[name]?.stringValue
    }

    private static func post(
        _ path: String, _ body: [String: JSONValue], gateway: LocalAPIGateway
    ) async
        -> APIResponse
    {
        await gateway.handle(
            APIRequest(
                method: "POST", rawPath: path, headers: [("content-type", "application/json")],
                body: Array(JSONValue.object(body).serialized.utf8)))
    }
}
