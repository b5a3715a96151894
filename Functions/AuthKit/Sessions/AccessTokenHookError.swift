/// Why the access-token hook gave no claims to sign: the sign-in or refresh fails closed, no
/// token is issued. Gatehouse's routes answer 502 `access_token_hook_failed` (504
/// `access_token_hook_timeout` when it did not answer in time, and the hook's own status and
/// message when it refused with `{"error": {"http_code", "message"}}`); the Supabase routes map
/// these to supabase/auth's hook errors (SupabaseEdge). Descriptions name the claim or the
/// failure, never a claim's value.
public enum AccessTokenHookError: Error, Sendable, Equatable {
    /// The function did not answer in time.
    case timedOut
    /// The invocation failed: the function's error, or Lambda could not be reached.
    case invocationFailed(String)
    /// The answer is not `{"claims": {…}}` (not JSON, no `claims`, not an object), or a claim's
    /// type is not the one Supabase's schema requires.
    case invalidAnswer(String)
    /// The answer changes, removes or adds a claim only Gatehouse sets (`AccessTokenHook.reserved`).
    case reservedClaim(String)
    /// The claims the hook returned are over `AccessTokenHook.claimsLimit` bytes of JSON, or its
    /// answer over `AccessTokenHook.answerLimit`.
    case tooLarge(limit: Int)
    /// The hook refused the sign-in itself: `{"error": {"http_code": 4xx/5xx, "message": …}}`.
    case refused(status: Int, message: String)
}

extension AccessTokenHookError: ClientError {
    public var status: Int {
        switch self {
        case .timedOut: 504
        case .refused(let status, _): status
        case .invocationFailed, .invalidAnswer, .reservedClaim, .tooLarge: 502
        }
    }

    public var code: String {
        switch self {
        case .timedOut: "access_token_hook_timeout"
        case .refused: "access_token_hook_refused"
        case .invocationFailed, .invalidAnswer, .reservedClaim, .tooLarge: "access_token_hook_failed"
        }
    }

    public var description: String {
        switch self {
        case .timedOut: "The access-token hook did not answer in time; no token was issued."
        case .invocationFailed(let why): "The access-token hook failed (\(why)); no token was issued."
        case .invalidAnswer(let why): "The access-token hook's answer is invalid (\(why)); no token was issued."
        case .reservedClaim(let name):
            "The access-token hook may not change or remove the claim \(name); no token was issued."
        case .tooLarge(let limit):
            "The access-token hook's claims are over \(limit) bytes; no token was issued."
        case .refused(_, let message): message
        }
    }
}
