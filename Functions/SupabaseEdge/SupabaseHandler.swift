import HTTPEdge
import LambdaRuntime

/// A handler of Supabase Auth's protocol (`/auth/v1/...`): like every `HTTPHandler` it parses,
/// calls and answers, and its errors are answered in Supabase's shape and codes
/// (`SupabaseErrorAnswer`).
public protocol SupabaseHandler: HTTPHandler {}

extension SupabaseHandler {
    /// Supabase's error answer for `error`.
    public func answer(_ error: any Error, to request: HTTPRequest, context: LambdaContext) -> HTTPResponse {
        SupabaseErrorAnswer.response(to: error, request: request, context: context)
    }
}
