import GatehouseJSON

/// Supabase's custom access-token hook (Cognito's pre-token-generation trigger): a function,
/// named by `ACCESS_TOKEN_HOOK`, that is given the claims Gatehouse made for an access token and
/// answers with the claims to sign. Its payload is Supabase's
/// `{"user_id", "claims", "authentication_method"}` (the session's way in, in Supabase's words,
/// or `token_refresh`); its answer is `{"claims": {…}}`, or
/// `{"error": {"http_code": 403, "message": "…"}}` to refuse the sign-in. The claims returned are
/// checked (`checked(_:against:)`): the claims only Gatehouse sets come back unchanged, the rest
/// keep the types Supabase's schema gives them, and the whole fits in a request header.
///
/// Nothing is invoked until a token is issued, and anything but good claims (a failed or late
/// invocation, an answer that is not JSON or has no `claims`, a reserved claim changed, too
/// large a token) fails the sign-in or refresh closed: `AccessTokenHookError`, no token.
public struct AccessTokenHook: Sendable {
    /// The variable that names the function (a name or an ARN); unset or empty, no hook.
    public static let variable = "ACCESS_TOKEN_HOOK"
    /// Supabase's `authentication_method` for a refreshed session's token.
    public static let refreshMethod = "token_refresh"

    /// The function invoked.
    public let function: String
    let invoker: any FunctionInvoker

    public init(function: String, invoker: any FunctionInvoker) {
        self.function = function
        self.invoker = invoker
    }

    /// The hook `environment` names, invoked through `invoker`; nil when it names none. A hook
    /// named with no way to invoke it is a setting the function cannot start with (fails closed).
    public init?(environment: [String: String], invoker: (any FunctionInvoker)?) throws {
        guard let function = environment[Self.variable], !function.isEmpty else { return nil }
        guard let invoker else {
            throw SettingsError.invalid(Self.variable, "this function has no way to invoke a function")
        }
        self.init(function: function, invoker: invoker)
    }

    /// The claims to sign instead of `claims`, made for `userID`'s session signed in by
    /// `authenticationMethod`: the hook's, once checked; `AccessTokenHookError` otherwise.
    public func claims(
        for claims: [String: JSONValue], userID: String, authenticationMethod: String
    ) async throws(AccessTokenHookError) -> [String: JSONValue] {
        let payload: JSONValue = [
            "user_id": .string(userID), "claims": .object(claims),
            "authentication_method": .string(authenticationMethod),
        ]
        let answer: [UInt8]
        do {
            answer = try await invoker.invoke(function, payload: payload.serializedBytes)
        } catch let error as FunctionInvocationError {
            throw Self.failure(error)
        } catch {
            throw .invocationFailed("not reached")
        }
        return try Self.checked(try Self.returnedClaims(answer), against: claims)
    }

    /// The hook error for a failed invocation.
    static func failure(_ error: FunctionInvocationError) -> AccessTokenHookError {
        switch error {
        case .timedOut: .timedOut
        case .answerTooLarge: .tooLarge(limit: answerLimit)
        case .functionFailed(let type): .invocationFailed("function error \(type)")
        case .unreachable(let why): .invocationFailed(why)
        }
    }
}
