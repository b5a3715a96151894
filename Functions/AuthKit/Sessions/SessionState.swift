import GatehouseJSON
import StoreCore

/// A session as its `Sessions` row holds it: the one home of what the session's access tokens
/// say about how its user signed in. Its refresh tokens point to it by user and session id and
/// carry only what decides their own validity; a refresh reads the row in the same round trip as
/// its user (`RefreshTokens`), and `AccessTokens` makes every access token from it. Raising a
/// session (MFA's `aal2`) is a write to this row alone.
public struct SessionState: Sendable, Equatable {
    public let userID: String
    public let sessionID: String
    /// The app the session signed in to: its access tokens' audience.
    public let app: String
    /// How the user signed in to start the session: the tokens' `data.provider`.
    public let method: String
    /// The authenticator assurance level: `aal1` for one factor.
    public let aal: String
    /// Each way the user proved who they are in this session, the first being how `method`
    /// proved it (`AuthenticationMethod.named(signIn:)`).
    public let amr: [AuthenticationMethod]
    /// Seconds since 1970.
    public let startedAt: Double
    /// Seconds since 1970: no token of the session is valid from then on.
    public let endsAt: Double

    /// A session starting `startedAt`, signed in with `method` alone, which `proof` names in
    /// `amr` (`AuthenticationMethod.named(signIn: method)` without one).
    public init(
        userID: String, sessionID: String, app: String, method: String, proof: String? = nil, startedAt: Double,
        endsAt: Double
    ) {
        let named = proof ?? AuthenticationMethod.named(signIn: method)
        self.init(
            userID: userID, sessionID: sessionID, app: app, method: method, aal: "aal1",
            amr: [AuthenticationMethod(method: named, timestamp: startedAt.rounded(.down))], startedAt: startedAt,
            endsAt: endsAt)
    }

    private init(
        userID: String, sessionID: String, app: String, method: String, aal: String, amr: [AuthenticationMethod],
        startedAt: Double, endsAt: Double
    ) {
        self.userID = userID
        self.sessionID = sessionID
        self.app = app
        self.method = method
        self.aal = aal
        self.amr = amr
        self.startedAt = startedAt
        self.endsAt = endsAt
    }

    /// The session a `Sessions` row holds; nil from one lacking a member. A row written before
    /// sessions held their method takes it from its token (`legacyMethod`), with one factor.
    init?(_ item: Item, legacyMethod: String? = nil) {
        guard case .string(let userID)? = item["userId"], case .string(let sessionID)? = item["sessionId"],
            case .string(let app)? = item["app"], case .number(let createdAt)? = item["createdAt"],
            case .number(let endsAt)? = item["endsAt"],
            let method = item["method"]?.stringValue ?? legacyMethod
        else { return nil }
        let startedAt = createdAt / 1000
        guard case .string(let aal)? = item["aal"], case .array(let entries)? = item["amr"] else {
            self.init(
                userID: userID, sessionID: sessionID, app: app, method: method, startedAt: startedAt, endsAt: endsAt)
            return
        }
        let amr = entries.compactMap(AuthenticationMethod.init)
        guard amr.count == entries.count, !amr.isEmpty else { return nil }
        self.init(
            userID: userID, sessionID: sessionID, app: app, method: method, aal: aal, amr: amr, startedAt: startedAt,
            endsAt: endsAt)
    }

    /// The `amr` methods of second factors, which raise a session to `aal2`, in supabase/auth's
    /// words (a phone factor's is `mfa/phone`, a WebAuthn factor's `mfa/webauthn`; a passkey's
    /// `webauthn`), and a recovery code's.
    static let secondFactors: Set<String> = [
        "totp", "mfa/phone", FactorCredential.method, "webauthn", Factors.recoveryMethod,
    ]

    /// This session after a second factor (`method`) was verified at `time`: `aal2`, and `amr`
    /// with that method's entry (replacing an earlier one of it), most recent first.
    func raised(by method: String, at time: Double) -> SessionState {
        let entries = [AuthenticationMethod(method: method, timestamp: time)] + amr.filter { $0.method != method }
        return SessionState(
            userID: userID, sessionID: sessionID, app: app, method: self.method, aal: "aal2",
            amr: entries.sorted { $0.timestamp > $1.timestamp }, startedAt: startedAt, endsAt: endsAt)
    }

    /// The row, expiring at `ttl`.
    func item(ttl: Double) -> Item {
        [
            "userId": .string(userID), "sessionId": .string(sessionID), "app": .string(app),
            "createdAt": .number(startedAt * 1000), "endsAt": .number(endsAt), "ttl": .number(ttl),
            "method": .string(method), "aal": .string(aal), "amr": .array(amr.map(\.json)),
        ]
    }
}
