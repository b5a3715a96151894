import GatehouseJSON
import StoreCore

/// Phone OTP from end to end: the code texted and checked (`PhoneCodes`), then the user found
/// or created by number and a session started exactly as `Exchange` starts one (an auth code
/// minted and exchanged through `SessionService`).
public struct PhoneSignIn: Sendable {
    public let codes: PhoneCodes
    private let sessions: SessionService
    private let clock: any StoreClock
    /// The app a request that names none signs in to (`DEFAULT_APP`).
    public let defaultApp: DefaultApp

    public init(codes: PhoneCodes, sessions: SessionService, clock: any StoreClock, defaultApp: DefaultApp) {
        self.codes = codes
        self.sessions = sessions
        self.clock = clock
        self.defaultApp = defaultApp
    }

    /// The service a function runs: `OTP_SECRET` (or `OTP_SECRET_FILE`), `SMS_DELIVERY` (SNS or
    /// Twilio Verify through `remote`), `DEFAULT_APP`, the session settings and signing keys, and
    /// the wall clock.
    public init(
        environment: [String: String], store: any KeyValueStore, remote: (any RemoteSenders)? = nil
    ) throws {
        let codes = try PhoneCodes(
            environment: environment, store: store, remote: remote, secret: try OTPSecret(environment: environment))
        self.init(
            codes: codes,
            sessions: try SessionService(environment: environment, store: store, functions: remote?.functions()),
            clock: codes.clock,
            defaultApp: DefaultApp(environment: environment))
    }

    /// The number and the app a request names: `phoneNumber` (international, or national for
    /// `countryCode`) and `app` or the default, each refused with a 400 that names it.
    public func target(phoneNumber: String?, countryCode: String?, app: String?) async throws -> (PhoneNumber, String) {
        let phone = try PhoneCodes.number(phoneNumber, countryCode: countryCode)
        return (phone, try await self.app(app))
    }

    /// `app`, or the default; an app that exists.
    public func app(_ app: String?) async throws -> String {
        try await Self.app(app, defaultApp: defaultApp, apps: sessions.apps)
    }

    /// `app`, or `defaultApp`; an app that exists in `apps`: what a function that only sends
    /// codes (`OtpRequest`, which holds no signing key) resolves a request's app with.
    public static func app(_ app: String?, defaultApp: DefaultApp, apps: AppRegistry) async throws -> String {
        let id = try defaultApp.resolve(app)
        guard try await apps.app(id: id) != nil else { throw SignInError.unknownApp }
        return id
    }

    /// Checks `code` and signs the number's user in to `app` (creating the user, named `name`,
    /// when the number is new): `{success, isNewUser, user: {id, phoneNumber, name}, tokens:
    /// {accessToken, refreshToken, expiresIn}}`.
    public func verify(
        _ phone: PhoneNumber, code: String?, codeVerifier: String? = nil, name: String?, app: String,
        sourceIP: String?
    ) async throws -> JSONValue {
        let (user, isNew, session) = try await signIn(
            phone, code: code, codeVerifier: codeVerifier, name: name, app: app, sourceIP: sourceIP)
        return [
            "success": true, "isNewUser": .bool(isNew),
            "user": [
                "id": .string(user.id), "phoneNumber": .string(phone.value),
                "name": user.name.map(JSONValue.string) ?? .null,
            ],
            "tokens": [
                "accessToken": .string(session.accessToken), "refreshToken": .string(session.refreshToken),
                "expiresIn": .number(max(0, (session.accessTokenExpiresAt / 1000 - clock.now).rounded())),
            ],
        ]
    }

    /// `verify`'s sign-in, for a caller that answers in its own shape (Supabase's
    /// `POST /verify {phone, token, type: "sms"}`): the number's user (found or created), whether
    /// it is new, and its session, through the same checks, limits and locks.
    public func signIn(
        _ phone: PhoneNumber, code: String?, codeVerifier: String? = nil, name: String?, app: String,
        sourceIP: String?
    ) async throws -> (user: User, isNewUser: Bool, session: SessionResponse) {
        let signUp: String?
        do {
            signUp = try await codes.verify(
                phone, code: code, codeVerifier: codeVerifier, sourceIP: sourceIP, app: app)
        } catch let error as SignInError {
            await sessions.recordRefusedCode(error, at: .phone(phone), app: app)
            throw error
        }
        let (user, isNew) = try await sessions.users.findOrCreate(phone: phone, name: name, signUpCode: signUp)
        let authCode = try await sessions.codes.mint(app: app, user: user, provider: "phone", isNewUser: isNew)
        return (user, isNew, try await sessions.exchange(code: authCode, app: app))
    }
}
