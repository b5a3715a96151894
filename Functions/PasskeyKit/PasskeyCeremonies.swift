import AuthKit
import GatehouseJSON
import JOSE
import StoreCore
import WebAuthn

/// Passkeys' two ceremonies over the store: registering one (signed in) and signing in with one
/// (username-less: the authenticator offers the user's discoverable credentials). Each begins
/// with options under a fresh challenge (`Passkeys.issue`) and ends with the credential the
/// client sends back, checked by `RelyingParty` against the challenge, spent first
/// (`Passkeys.spend`), so each is answered once.
///
/// A sign-in starts a session as every other method does (`SessionService.start`), at `aal2`:
/// the passkey is both factors (`amr` `passkey`, then `webauthn` as MFA names it), the
/// passkey's counter kept in the same transaction.
public struct PasskeyCeremonies: Sendable {
    /// Sign-in ceremonies begun, and answered, per source: 30 each per 5 minutes.
    public static let signInOptionsPerSource = RateLimit.perSource(name: "passkey:options:ip", limit: 30, window: 300)
    public static let signInsPerSource = RateLimit.perSource(name: "passkey:signin:ip", limit: 30, window: 300)
    /// Registrations begun per user (20 an hour) and per source (30 per 5 minutes).
    public static let registrationsPerUser = RateLimit(name: "passkey:register:user", limit: 20, window: 3600)
    public static let registrationsPerSource = RateLimit.perSource(
        name: "passkey:register:ip", limit: 30, window: 300)
    /// `amr`'s entry for the passkey as a second factor (MFA's WebAuthn), beside `passkey`.
    public static let secondFactorMethod = SecondFactorProof.passkeyMethod

    public let passkeys: Passkeys
    let sessions: SessionService
    let settings: PasskeySettings
    /// A passkey is a new way in: only a recent sign-in registers one (`RecentSignIn`), so a
    /// stolen access token alone cannot add one, as it cannot link an identity.
    let recent: RecentSignIn
    let store: any KeyValueStore
    let clock: any StoreClock

    public init(
        store: any KeyValueStore, clock: any StoreClock, sessions: SessionService, settings: PasskeySettings,
        recentSignIn: Double = Reauthentication.defaultWindow
    ) {
        passkeys = Passkeys(store: store, clock: clock, sessions: sessions)
        self.sessions = sessions
        self.settings = settings
        recent = RecentSignIn(store: store, clock: clock, window: recentSignIn)
        self.store = store
        self.clock = clock
    }

    /// What a ceremony begins with: its challenge (`challenge_id`, `expires_at`) and the W3C
    /// options for `navigator.credentials` or `ASAuthorization`.
    public struct Begun: Sendable {
        public let challenge: PasskeyChallenge
        public let options: JSONValue
    }

    /// A registration's options for `user`, signed in as `bearer` in `app`: the user's passkeys
    /// excluded, under a challenge bound to the session. Refused: a user with a verified second
    /// factor in an `aal1` session (`AccountError.secondFactorNeeded`), a session that is not a
    /// recent sign-in (`reauthenticationNeeded`), the limits, a user who has
    /// `Passkeys.maximumPerUser`.
    public func beginRegistration(
        for user: User, bearer: AccessTokens.Bearer, app: App, sourceIP: String?
    ) async throws -> Begun {
        try await mayRegister(user, bearer: bearer)
        try await count(Self.registrationsPerSource, subject: sourceIP ?? "")
        try await count(Self.registrationsPerUser, subject: user.id)
        let existing = try await passkeys.list(userID: user.id)
        guard existing.count < Passkeys.maximumPerUser else { throw PasskeyError.tooManyPasskeys }
        let challenge = try await passkeys.issue(
            .registration, app: app.id, userID: user.id, sessionID: bearer.sessionID)
        let options = CeremonyOptions.creation(
            party: settings.party(for: app), partyName: app.name, userHandle: Self.userHandle(of: user.id),
            userName: user.email ?? user.phone ?? user.id, challenge: challenge.challenge,
            excluded: existing.compactMap { Base64URL.decode($0.credentialID) },
            timeout: Int(Passkeys.challengeLifetime))
        return Begun(challenge: challenge, options: options)
    }

    /// Ends the registration of challenge `challengeID` with `credential` (`toJSON()`'s shape):
    /// the new passkey, named for its authenticator where the model is known (a name the
    /// authenticator claims, unattested: shown, never trusted).
    public func finishRegistration(
        challengeID: String, credential: JSONValue, user: User, bearer: AccessTokens.Bearer, app: App
    ) async throws -> Passkey {
        try await mayRegister(user, bearer: bearer)
        let challenge = try await passkeys.spend(
            challengeID, purpose: .registration, app: app.id, userID: user.id, sessionID: bearer.sessionID)
        let registration = try Self.refusing {
            let response = try CredentialResponse.registration(credential)
            let registration = try settings.party(for: app).verifyRegistration(
                clientDataJSON: response.clientDataJSON, attestationObject: response.attestationObject ?? [],
                challenge: challenge.challenge)
            guard registration.credential.id == response.id else {
                throw WebAuthnError.malformed("the credential's id is not the attested one")
            }
            return registration
        }
        let passkey = Passkey(
            id: RandomToken.uuid(), userID: user.id, credentialID: Base64URL.encode(registration.credential.id),
            publicKey: Base64URL.encode(registration.credential.publicKeyBytes), signCount: registration.signCount,
            backupEligible: registration.backupEligible, backedUp: registration.backedUp,
            aaguid: SHA256Hex.uuid(registration.credential.aaguid),
            friendlyName: AuthenticatorNames.name(of: registration.credential.aaguid),
            createdAt: (clock.now * 1000).rounded(.down), registeredAtAAL2: bearer.sessionAAL == "aal2")
        try await passkeys.register(passkey, credentialID: registration.credential.id)
        return passkey
    }

    /// A sign-in's options for `app`: no credentials listed, user verification required.
    public func beginSignIn(app: App, sourceIP: String?) async throws -> Begun {
        try await count(Self.signInOptionsPerSource, subject: sourceIP ?? "")
        let challenge = try await passkeys.issue(.authentication, app: app.id)
        return Begun(
            challenge: challenge,
            options: CeremonyOptions.request(
                party: settings.party(for: app), challenge: challenge.challenge,
                timeout: Int(Passkeys.challengeLifetime)))
    }

    /// Removes `user`'s passkey `id` (as supabase/auth, a user with a verified second factor
    /// needs an `aal2` session for it).
    public func remove(_ id: String, of user: User, bearer: AccessTokens.Bearer) async throws {
        try await Factors.requireSecondFactor(userID: user.id, sessionAAL: bearer.sessionAAL, in: store)
        try await passkeys.remove(id, userID: user.id)
    }

    /// What a registration asks of its session: a user who is not anonymous, an `aal2` session
    /// once the user has a verified factor, and a recent sign-in.
    private func mayRegister(_ user: User, bearer: AccessTokens.Bearer) async throws {
        guard !user.isAnonymous else { throw PasskeyError.anonymousUser }
        try await Factors.requireSecondFactor(userID: user.id, sessionAAL: bearer.sessionAAL, in: store)
        try await recent.require(bearer, of: user)
    }

    /// The user handle a registration gives the authenticator: the user's id, as supabase/auth's.
    static func userHandle(of userID: String) -> [UInt8] { Array(userID.utf8) }

    /// Counts one event of `subject` against `rule`; over it, `SignInError.rateLimited`.
    func count(_ rule: RateLimit, subject: String) async throws {
        if case .limited(let retryAfter) = try await RateLimiter(store: store, clock: clock).hit(rule, subject: subject)
        {
            throw SignInError.rateLimited(retryAfter: retryAfter)
        }
    }

    /// `body`'s result, a WebAuthn refusal thrown as `PasskeyError.verificationFailed`.
    static func refusing<T>(_ body: () throws -> T) throws(PasskeyError) -> T {
        do {
            return try body()
        } catch let error as WebAuthnError {
            throw .verificationFailed(reason: "\(error)")
        } catch {
            throw .verificationFailed(reason: "\(type(of: error))")
        }
    }
}
