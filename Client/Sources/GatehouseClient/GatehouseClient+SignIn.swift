import Foundation

/// One method per sign-in route that answers with a session: phone codes, Sign in with Apple,
/// and an email and password (Supabase's token route). Each keeps the session, as
/// `signIn(with:)` does, and returns who signed in.
extension GatehouseClient {
    /// How a phone code reaches the person: a text, or (with Twilio Verify) a voice call.
    public enum PhoneCodeChannel: String, Sendable {
        case sms, call
    }

    private struct PhoneCodeRequest: Encodable, Sendable {
        let phoneNumber: String
        let countryCode: String?
        let app: String
        let codeChallenge: String?
        let channel: String
    }

    private struct PhoneCodeVerification: Encodable, Sendable {
        let phoneNumber: String
        let countryCode: String?
        let code: String
        let name: String?
        let codeVerifier: String?
        let app: String
    }

    private struct AppleSignIn: Encodable, Sendable {
        struct FullName: Encodable, Sendable {
            let givenName: String?
            let familyName: String?
        }

        let identityToken: String
        let authorizationCode: String
        let user: String
        let fullName: FullName?
        let nonce: String?
        let app: String
    }

    private struct PasswordSignIn: Encodable, Sendable {
        let email: String
        let password: String
    }

    /// Asks for a code for `phoneNumber` (international, or national with `countryCode`), by
    /// text or call; with `codeChallenge` (PKCE S256), only the verifier's holder can use it.
    public func requestPhoneCode(
        phoneNumber: String, countryCode: String? = nil, channel: PhoneCodeChannel = .sms,
        codeChallenge: String? = nil
    ) async throws {
        _ = try await post(
            "/auth/otp/request",
            PhoneCodeRequest(
                phoneNumber: phoneNumber, countryCode: countryCode, app: app, codeChallenge: codeChallenge,
                channel: channel.rawValue))
    }

    /// Signs in with the code texted to `phoneNumber` (`name` names a new user).
    @discardableResult
    public func signIn(
        phoneNumber: String, code: String, countryCode: String? = nil, name: String? = nil,
        codeVerifier: String? = nil
    ) async throws -> GatehouseUser {
        try await signIn(
            with: try await sessionAnswer(
                "/auth/otp/verify",
                PhoneCodeVerification(
                    phoneNumber: phoneNumber, countryCode: countryCode, code: code, name: name,
                    codeVerifier: codeVerifier, app: app)))
    }

    /// Signs in with what Sign in with Apple gave the app (`ASAuthorizationAppleIDCredential`'s
    /// identity token and authorization code as text, its `user`, the name on the first
    /// sign-in), and the raw `nonce` whose SHA-256 the request carried.
    @discardableResult
    public func signInWithApple(
        identityToken: String, authorizationCode: String, user: String, givenName: String? = nil,
        familyName: String? = nil, nonce: String? = nil
    ) async throws -> GatehouseUser {
        let name =
            givenName == nil && familyName == nil
            ? nil : AppleSignIn.FullName(givenName: givenName, familyName: familyName)
        return try await signIn(
            with: try await sessionAnswer(
                "/auth/verify-apple",
                AppleSignIn(
                    identityToken: identityToken, authorizationCode: authorizationCode, user: user, fullName: name,
                    nonce: nonce, app: app)))
    }

    /// Signs in with an email and password (an account made through `/auth/v1/signup` and
    /// confirmed): Supabase's `/auth/v1/token?grant_type=password`, which names the app by its
    /// publishable key (`apiKey`, from `gatehouse apps`).
    @discardableResult
    public func signIn(email: String, password: String, apiKey: String) async throws -> GatehouseUser {
        try await signIn(
            with: try await sessionAnswer(
                "/auth/v1/token?grant_type=password", PasswordSignIn(email: email, password: password),
                headers: ["apikey": apiKey]))
    }
}
