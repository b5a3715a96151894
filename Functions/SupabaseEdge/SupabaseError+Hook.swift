import AuthKit

extension SupabaseError {
    /// A failed access-token hook in supabase/auth's status, code and words (its hooks' errors):
    /// a hook that did not answer in time, 422 `hook_timeout`; an answer over the limit, 422
    /// `hook_payload_over_size_limit`; the hook's own refusal, its status and message (code
    /// `unexpected_failure` for a 500, else `unknown`, as supabase/auth renders an error without
    /// one); any other failure, 500 `unexpected_failure`, its cause left to the log.
    public init(hook error: AccessTokenHookError) {
        switch error {
        case .timedOut:
            self.init(
                status: 422, code: "hook_timeout",
                message: "Failed to reach hook within maximum time of \(Self.hookSeconds) seconds")
        case .tooLarge(let limit):
            self.init(
                status: 422, code: "hook_payload_over_size_limit",
                message: "Payload size exceeded size limit of \(limit) bytes")
        case .refused(let status, let message):
            self.init(status: status, code: status == 500 ? "unexpected_failure" : "unknown", message: message)
        case .invocationFailed, .invalidAnswer, .reservedClaim:
            // What failed (a role, a claim's name) is the operator's, in the log line, not the
            // client's: the answer says only that the hook did.
            self.init(status: 500, code: "unexpected_failure", message: "The custom access token hook failed")
        }
    }

    /// The hook's time limit as the message says it (`LambdaInvoker.timeout`).
    static let hookSeconds = 5
}
