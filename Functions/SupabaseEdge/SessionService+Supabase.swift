import AuthKit
import HTTPEdge

extension SessionService {
    /// `session` of `user` answered as Supabase answers a sign-in: the tokens, their lifetime,
    /// and the user with its live second factors (which supabase-swift reads for the next
    /// assurance level). The one answer of every Supabase route that starts or raises a session.
    public func supabaseAnswer(_ session: SessionResponse, user: User) async throws -> HTTPResponse {
        .json(
            200,
            SupabaseJSON.session(
                session, user: user, lifetime: accessTokens.lifetime, factors: try await factors(of: user.id)))
    }
}
