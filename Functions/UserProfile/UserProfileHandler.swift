import AuthKit
import HTTPEdge
import LambdaRuntime

/// `GET /users/me`, behind the authorizer: the signed-in user, from the verified subject
/// (`sub`) the authorizer put in the request context; `GET /users/me/export`: everything kept
/// about them (`export`); `GET /users/me/security-events`: their own recent security events
/// (`UserProfileHandler+SecurityEvents.swift`).
struct UserProfileHandler: HTTPHandler {
    let accounts: Accounts
    /// Gatehouse's own issuer (`ISSUER`): only its tokens' users are read here.
    let issuer: String
    /// Where the security events are read.
    let audit: AuditLog

    func handle(_ request: HTTPRequest, context: LambdaContext) async throws -> HTTPResponse {
        if request.path.hasSuffix("/users/me/export") { return try await export(request) }
        if request.path.hasSuffix("/security-events") { return try await securityEvents(request) }
        return .json(200, try await accounts.profile(userID: try request.signedInUserID(issuer: issuer)).json)
    }
}
