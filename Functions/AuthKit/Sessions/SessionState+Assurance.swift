extension SessionState {
    /// The level a request holds: `aal2` only when both its access token (`token`, the `aal` it
    /// was issued with) and its session's row (`row`, now) say so. A token issued before its
    /// session was raised stays `aal1` (as a refresh token from then ends), and a session a
    /// removed factor lowered is `aal1` whatever its unexpired tokens say.
    public static func assurance(row: String?, token: String?) -> String {
        row == "aal2" && token == "aal2" ? "aal2" : "aal1"
    }
}
