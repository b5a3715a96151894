import AuthKit

extension SupabaseError {
    /// A factor refusal in supabase/auth's status, code and words (`internal/api/mfa.go`,
    /// `loadFactor`: `FactorError`'s own); nil for a stored secret that does not open, a server
    /// fault (500, its cause left to the log).
    public init?(factor error: FactorError) {
        guard error != .secretUnreadable else { return nil }
        self.init(status: error.status, code: error.code, message: error.description)
    }
}
