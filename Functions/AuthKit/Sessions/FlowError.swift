/// Why a PKCE flow was refused: its start (the client's challenge) or its end (the auth code
/// and the verifier exchanged for a session). Domain errors: each API's edge answers them in
/// its own dialect (`SupabaseErrorAnswer` with Supabase's `flow_state_*` codes).
public enum FlowError: Error, Sendable, Equatable, CustomStringConvertible {
    /// `code_challenge` and `code_challenge_method` must come together, and be valid.
    case invalidChallenge(String)
    /// The auth code or the verifier is missing.
    case missingCodeOrVerifier
    /// No live flow has that code for this app: never made, already used, or another app's.
    case notFound
    /// The code was made more than `FlowCodes.lifetime` ago (it is spent).
    case expired
    /// The verifier is not the one the flow's challenge was made from (the code is spent).
    case badVerifier

    public var description: String {
        switch self {
        case .invalidChallenge(let why): why
        case .missingCodeOrVerifier: "both the auth code and the code verifier are required"
        case .notFound: "no valid flow has this code"
        case .expired: "the flow has expired"
        case .badVerifier: "the code verifier does not match the flow's challenge"
        }
    }
}
