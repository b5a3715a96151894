import AuthKit
import HTTPEdge

extension UserProfileHandler {
    /// The most events a page of `GET /users/me/security-events` holds, and its default.
    static let securityEventsLimit = 100
    static let securityEventsDefault = 20

    /// `GET /users/me/security-events[?limit=&cursor=]`: the signed-in user's own recent
    /// security events (`AuditLog`), newest first, `{"events": [...], "next": "..."}` (`next`
    /// only when there is a later page: pass it as `cursor`). Read from the user's partition
    /// only, so no one else's events can be asked for.
    func securityEvents(_ request: HTTPRequest) async throws -> HTTPResponse {
        let userID = try request.signedInUserID(issuer: issuer)
        var limit = Self.securityEventsDefault
        if let text = request.queryParameters["limit"] {
            guard let value = Int(text), (1...Self.securityEventsLimit).contains(value) else {
                throw AuditQueryError.invalid("limit")
            }
            limit = value
        }
        let page = try await audit.events(
            AuditQuery(userID: userID, limit: limit, cursor: request.queryParameters["cursor"]))
        return .json(200, page.json)
    }
}
