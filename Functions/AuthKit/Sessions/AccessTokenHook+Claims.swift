import GatehouseJSON

/// What the hook may do to the claims, decided with Supabase's rules and Gatehouse's checks.
///
/// - **Reserved**: the claims that say whose token it is, for which app and session, how long
///   it lives and how the user proved it. Supabase lets a hook change them (its schema only asks
///   that they be present); Gatehouse does not: the authorizer and every verifier decide on
///   `aud` (the app) and `sid` (the session still live), `iss`, `exp` and `sub`; `jti` is the
///   token's identity; `aal`, `amr` and `is_anonymous` are what row-level policies trust for
///   MFA and anonymous users; `data` carries the user's id the functions read; `scope` and `scp`
///   are what the authorizer's routes require (a hook copying user-editable metadata into them
///   would let users grant themselves scopes; Gatehouse's user tokens carry none). Each must come back
///   exactly as made, and the hook may add none of them that was not made (`nbf`).
/// - **Typed**: `role` (which Supabase's hooks may change, to a database role; Gatehouse's
///   authorizer reads no `role`) must stay a non-empty string; `email`, `phone` and `client_id`
///   strings, `app_metadata` and `user_metadata` objects, when present (Supabase's schema).
/// - Every other claim the hook may add, change or remove.
extension AccessTokenHook {
    /// The claims the hook may not change, remove or add.
    public static let reserved: Set<String> = [
        "iss", "aud", "sub", "exp", "iat", "nbf", "jti", "sid", "session_id", "aal", "amr", "is_anonymous", "data",
        "scope", "scp",
    ]
    /// The most JSON the returned claims may be: 4 KB, so the signed token (about 6 KB) fits the
    /// 10 KB API Gateway allows all of a request's headers; or, when the claims made were larger,
    /// no more than those.
    public static let claimsLimit = 4096
    /// The most the hook's answer may be before it is read: 64 KB.
    public static let answerLimit = 64 * 1024

    /// The `claims` object of the hook's `answer`; the hook's refusal when it answered with one.
    static func returnedClaims(_ answer: [UInt8]) throws(AccessTokenHookError) -> [String: JSONValue] {
        guard answer.count <= answerLimit else { throw .tooLarge(limit: answerLimit) }
        guard case .object(let root)? = try? JSONValue(parsing: answer) else {
            throw .invalidAnswer("not a JSON object")
        }
        if let refusal = refusal(root["error"]) { throw refusal }
        guard let claims = root["claims"] else { throw .invalidAnswer("no claims") }
        guard case .object(let object) = claims else { throw .invalidAnswer("claims is not an object") }
        return object
    }

    /// Supabase's hook error, `{"http_code": 403, "message": "…"}` (a status outside 400–599 is
    /// 500); nil for none, or one with no message, which Supabase does not count as an error.
    static func refusal(_ error: JSONValue?) -> AccessTokenHookError? {
        guard let message = error?["message"]?.stringValue, !message.isEmpty else { return nil }
        let code = error?["http_code"]?.numberValue.flatMap { Int(exactly: $0) } ?? 500
        return .refused(status: (400...599).contains(code) ? code : 500, message: String(message.prefix(256)))
    }

    /// `returned`, the hook's claims for the `made` ones, when the rules above allow them.
    static func checked(
        _ returned: [String: JSONValue], against made: [String: JSONValue]
    ) throws(AccessTokenHookError) -> [String: JSONValue] {
        for name in reserved.sorted() where returned[name] != made[name] {
            throw .reservedClaim(name)
        }
        guard let role = returned["role"]?.stringValue, !role.isEmpty else {
            throw .invalidAnswer("role must be a non-empty string")
        }
        for name in ["email", "phone", "client_id"] where returned[name] != nil && returned[name]?.stringValue == nil {
            throw .invalidAnswer("\(name) must be a string")
        }
        for name in ["app_metadata", "user_metadata"]
        where returned[name] != nil && returned[name]?.objectValue == nil {
            throw .invalidAnswer("\(name) must be an object")
        }
        // Claims Gatehouse made past the limit (an imported user's large `app_metadata`) were
        // signed without a hook: the hook may keep them, never grow them.
        let size = JSONValue.object(returned).serializedBytes.count
        guard size <= claimsLimit || size <= JSONValue.object(made).serializedBytes.count else {
            throw .tooLarge(limit: claimsLimit)
        }
        return returned
    }
}
