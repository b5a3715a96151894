import AuthKit
import GatehouseJSON
import JOSE
import StoreCore
import WebAuthn

/// WebAuthn as a second factor (Supabase's `factor_type: "webauthn"`, supabase-swift's
/// `enrollWebAuthnFactor`/`verifyWebAuthnFactor`), off unless `MFA_WEBAUTHN_FACTORS` is
/// `enabled`. The factor's items are `Factors`' (`Factors+Credential`); the ceremonies are
/// `RelyingParty`'s checks, under `PasskeySettings`' RP ID and each app's origins:
///
/// - enrolled unverified, with no credential;
/// - challenged by a session (5 minutes, bound to it): `create` options while unverified (the
///   user's other factors' credentials excluded), `request` options once verified (its own
///   credential the only one allowed), user verification required either way;
/// - verified with the credential: `create` registers it on the factor (id, COSE key, counter),
///   `request` checks an assertion by it (signature, counter); either raises the session to
///   `aal2` with `amr` `mfa/webauthn`, through the same raise as a TOTP code, under the same
///   wrong-try limits, the challenge spent by the first answer.
///
/// The credential lives in the factor's item only: it never signs in as a first factor. Its
/// user handle is the factor's id, not the user's, so registering it never replaces the user's
/// passkey on the same authenticator (one account per RP ID and user handle there).
public struct WebAuthnFactors: Sendable {
    /// The environment variable that turns WebAuthn factors on (`enabled`); absent or
    /// `disabled`, enrolling one is refused (Supabase's `MFA_WEB_AUTHN_ENROLL_ENABLED`, off by
    /// default too).
    public static let setting = "MFA_WEBAUTHN_FACTORS"

    /// Whether `environment` turns WebAuthn factors on: `enabled`; absent or `disabled`, off;
    /// anything else is `SettingsError.invalid`.
    public static func isEnabled(in environment: [String: String]) throws -> Bool {
        try EnvironmentReader(environment: environment).isEnabled(setting)
    }

    let factors: Factors
    let settings: PasskeySettings

    /// WebAuthn factors kept with `factors`, their ceremonies under `settings`.
    public init(factors: Factors, settings: PasskeySettings) {
        self.factors = factors
        self.settings = settings
    }

    /// A challenge's answer: the challenge, its ceremony (`create` or `request`) and the W3C
    /// options for `navigator.credentials` or `ASAuthorization`.
    public struct Begun: Sendable {
        public let challenge: FactorChallenge
        public let ceremony: String
        public let options: JSONValue
    }

    /// A new unverified WebAuthn factor of `user` (`Factors.enrollCredentialFactor`).
    public func enroll(
        friendlyName: String, for user: User, bearer: AccessTokens.Bearer
    ) async throws -> (factor: Factor, recoveryCodes: [String]) {
        try await factors.enrollCredentialFactor(friendlyName: friendlyName, for: user, bearer: bearer)
    }

    /// A challenge of the bearer's WebAuthn factor `factorID` for `app`'s origins, and its options.
    public func challenge(
        _ factorID: String, of user: User, bearer: AccessTokens.Bearer, app: App
    ) async throws -> Begun {
        let factor = try await factors.credentialFactor(factorID, userID: bearer.userID)
        let challenge = try await factors.credentialChallenge(of: factor, bearer: bearer)
        let party = settings.party(for: app)
        let nonce = challenge.nonce ?? ""
        let timeout = Int(Factors.challengeLifetime)
        if let credential = factor.credential {
            let options = CeremonyOptions.request(
                party: party, challenge: nonce, timeout: timeout, allowed: [Base64URL.decode(credential.id) ?? []])
            return Begun(challenge: challenge, ceremony: "request", options: options)
        }
        let others = try await factors.list(userID: user.id).compactMap(\.credential)
        let options = CeremonyOptions.creation(
            party: party, partyName: app.name, userHandle: Self.userHandle(of: factor),
            userName: user.email ?? user.phone ?? user.id, challenge: nonce,
            excluded: others.compactMap { Base64URL.decode($0.id) }, timeout: timeout, discoverable: false)
        return Begun(challenge: challenge, ceremony: "create", options: options)
    }

    /// Checks `credential` (`toJSON()`'s shape) under the bearer's challenge `challengeID` of
    /// factor `factorID` (`ceremony`, when the client names it, must be the challenge's): right,
    /// the session raised to `aal2` (`Factors.acceptCredential`), its new tokens the answer.
    /// Every refusal of the credential is `FactorError.credentialRefused`.
    public func verify(
        _ factorID: String, challengeID: String, ceremony: String?, credential: JSONValue, user: User,
        bearer: AccessTokens.Bearer, app: App, sourceIP: String?
    ) async throws -> SessionResponse {
        let (factor, challenge) = try await factors.beginCredentialProof(
            factorID, challengeID: challengeID, bearer: bearer, sourceIP: sourceIP)
        let proved: FactorCredential
        do {
            proved = try Self.proved(
                credential, for: factor, ceremony: ceremony, party: settings.party(for: app), challenge: challenge)
        } catch {
            // A verified factor's assertion refused is a second factor's failed proof; a
            // registration refused is an enrolment that did not finish.
            if factor.credential != nil { await factors.recordRefusedProof(bearer: bearer) }
            throw error
        }
        if factor.credential == nil,
            try await factors.list(userID: user.id).contains(where: { $0.credential?.id == proved.id })
        {
            throw FactorError.credentialRefused(reason: "the credential is another factor's")
        }
        return try await factors.acceptCredential(
            factor, credential: proved, user: user, bearer: bearer, sourceIP: sourceIP)
    }

    /// The credential `json` proves for `factor` under `challenge` (`ceremony`, when the client
    /// names it, must be the challenge's): its registration, or its assertion by the factor's
    /// credential. `FactorError.credentialRefused` otherwise.
    static func proved(
        _ json: JSONValue, for factor: Factor, ceremony: String?, party: RelyingParty, challenge: FactorChallenge
    ) throws(FactorError) -> FactorCredential {
        if let ceremony, ceremony != challenge.ceremony {
            throw FactorError.credentialRefused(reason: "the ceremony is not the challenge's")
        }
        guard let stored = factor.credential else { return try registered(json, party: party, challenge: challenge) }
        return try asserted(json, by: stored, factor: factor, party: party, challenge: challenge)
    }

    /// The credential a registration `json` makes, checked against `challenge`.
    static func registered(
        _ json: JSONValue, party: RelyingParty, challenge: FactorChallenge
    ) throws(FactorError) -> FactorCredential {
        try refusing {
            let response = try CredentialResponse.registration(json)
            let registration = try party.verifyRegistration(
                clientDataJSON: response.clientDataJSON, attestationObject: response.attestationObject ?? [],
                challenge: challenge.nonce ?? "")
            guard registration.credential.id == response.id else {
                throw WebAuthnError.malformed("the credential's id is not the attested one")
            }
            return FactorCredential(
                id: Base64URL.encode(registration.credential.id),
                publicKey: Base64URL.encode(registration.credential.publicKeyBytes), signCount: registration.signCount)
        }
    }

    /// `stored` after an assertion `json` by it, checked against `challenge`: its new counter.
    static func asserted(
        _ json: JSONValue, by stored: FactorCredential, factor: Factor, party: RelyingParty,
        challenge: FactorChallenge
    ) throws(FactorError) -> FactorCredential {
        try refusing {
            let response = try CredentialResponse.assertion(json)
            guard Base64URL.encode(response.id) == stored.id else {
                throw FactorError.credentialRefused(reason: "another credential")
            }
            if let handle = response.userHandle, handle != userHandle(of: factor) {
                throw FactorError.credentialRefused(reason: "the user handle is not the factor's")
            }
            let assertion = try party.verifyAssertion(
                clientDataJSON: response.clientDataJSON, authenticatorData: response.authenticatorData ?? [],
                signature: response.signature ?? [], challenge: challenge.nonce ?? "",
                publicKey: try COSEKey(bytes: Base64URL.decode(stored.publicKey) ?? []),
                storedCount: stored.signCount)
            return FactorCredential(id: stored.id, publicKey: stored.publicKey, signCount: assertion.signCount)
        }
    }

    /// Whether a client's relying party (supabase-swift's `WebAuthnChallengeOptions`) is the
    /// deployment's: `rpID` absent or the RP ID, and each of `origins` one `app` allows.
    public func allows(rpID: String?, origins: [String], for app: App) -> Bool {
        let party = settings.party(for: app)
        return (rpID == nil || rpID == party.id) && origins.allSatisfy(party.origins.contains)
    }

    /// The user handle a factor's credential is made for: the factor's id.
    static func userHandle(of factor: Factor) -> [UInt8] { Array(factor.id.utf8) }

    /// `body`'s result, a WebAuthn refusal thrown as `FactorError.credentialRefused` (its check
    /// named, never the credential, the challenge or the key).
    static func refusing<T>(_ body: () throws -> T) throws(FactorError) -> T {
        do {
            return try body()
        } catch let error as FactorError {
            throw error
        } catch let error as WebAuthnError {
            throw .credentialRefused(reason: "\(error)")
        } catch {
            throw .credentialRefused(reason: "\(type(of: error))")
        }
    }
}
