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

    /// The service a function runs: `OTP_SECRET` (or `OTP_SECRET_FILE`), `SMS_DELIVERY` (SNS
    /// through `remote`),
    /// `DEFAULT_APP`, the session settings and signing keys, and the wall clock.
    public init(
        environment: [String: String], store: any KeyValueStore, remote: (any RemoteSenders)? = nil
    ) throws {
        let clock = SystemStoreClock()
        let delivery = try DeliverySettings(environment: environment)
        self.init(
            codes: PhoneCodes(
                store: store, clock: clock,
                sender: try delivery.sender(.sms, store: store, clock: clock, remote: remote),
                secret: try OTPSecret(environment: environment)),
            sessions: try SessionService(environment: environment, store: store), clock: clock,
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
        let id = try defaultApp.resolve(app)
        guard try await sessions.apps.app(id: id) != nil else { throw SignInError.unknownApp }
        return id
    }

    /// Checks `code` and signs the number's user in to `app` (creating the user, named `name`,
    /// when the number is new): `{success, isNewUser, user: {id, phoneNumber, name}, tokens:
    /// {accessToken, refreshToken, expiresIn}}`.
    public func verify(
        _ phone: PhoneNumber, code: String?, codeVerifier: String? = nil, name: String?, app: String,
        sourceIP: String?
    ) async throws -> JSONValue {
        try await codes.verify(phone, code: code, codeVerifier: codeVerifier, sourceIP: sourceIP, app: app)
        let (user, isNew) = try await sessions.users.findOrCreate(phone: phone, name: name)
        let authCode = try await sessions.codes.mint(app: app, user: user, provider: "phone", isNewUser: isNew)
        let session = try await sessions.exchange(code: authCode, app: app)
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
}
