import GatehouseJSON
import StoreCore

/// Phone factors (Supabase's `factor_type: "phone"`): a number enrolled, a 6-digit code texted
/// to it for each challenge, and verified as a TOTP factor is (`Factors+Verify`: the same
/// wrong-code limits per source, factor and user, the session raised to `aal2` with `amr`
/// method `mfa/phone`, as supabase/auth writes it).
///
/// - Enrolling: a number of the sign-in's form (E.164) that may be texted (`PhoneDestinations`);
///   as supabase/auth's `enrollPhoneFactor`, a verified phone factor of the same number is
///   refused (`phoneFactorExists`) and unverified ones of it are replaced; then the rules of
///   every new factor (`Factors.checkEnrollable`: names, at most 10, `aal2` once one is verified).
/// - Challenging: only from a session of the factor's user (no one else finds the factor), and
///   each challenge is a text, counted before anything is written or sent as a sign-in code's
///   request is (per source, per number and source, per range and source), per session
///   (`sendsPerSession`), and against the hourly budget (`PhoneCodes+Factor.swift`); the text
///   goes after the answer. A challenge is bound to its session and lives 5 minutes.
/// - Verifying: the code compared in constant time (or by the provider), after the tries were
///   counted: the shared limits, and 5 tries a challenge (`PhoneCodes.triesPerCode`), as a
///   texted sign-in code has; right, the challenge is spent in the same transaction that
///   raises the session, so it works once.
public struct PhoneFactors: Sendable {
    /// Challenges (texts) one session may ask for: 5 an hour, whatever its sources. With the
    /// per-number-and-source limit, it bounds what a session's holder (someone with the
    /// password, say) can text to the owner's number; the owner's own sessions count apart.
    public static let sendsPerSession = RateLimit(name: "mfa-sends:session", limit: 5, window: 3600)
    /// Challenges (texts) one user's sessions may ask for together: 10 an hour, so that new
    /// sign-ins buy no more texts (to numbers the user enrolled, which need not be theirs).
    public static let sendsPerUser = RateLimit(name: "mfa-sends:user", limit: 10, window: 3600)
    /// The environment variable that turns phone factors on (`enabled`); absent or `disabled`,
    /// enrolling one is refused (Supabase's `MFA_PHONE_ENROLL_ENABLED`, off by default too):
    /// each challenge is a text, to a number the user chose.
    public static let setting = "MFA_PHONE_FACTORS"

    /// Whether `environment` turns phone factors on: `MFA_PHONE_FACTORS` `enabled`; absent or
    /// `disabled`, off; anything else is `SettingsError.invalid`.
    public static func isEnabled(in environment: [String: String]) throws -> Bool {
        try EnvironmentReader(environment: environment).isEnabled(setting)
    }

    let factors: Factors
    let codes: PhoneCodes

    /// Phone factors kept with `factors`, their codes texted and checked by `codes`.
    public init(factors: Factors, codes: PhoneCodes) {
        self.factors = factors
        self.codes = codes
    }

    /// A new unverified phone factor of `user` (signed in as `bearer`) for `phone`, and, at the
    /// user's first enrolment (no verified factor yet), the recovery codes that come in force
    /// if it is the first verified (`Factors.issueRecoveryCodes`, as a TOTP enrolment's).
    public func enroll(
        _ phone: PhoneNumber, friendlyName: String, for user: User, bearer: AccessTokens.Bearer
    ) async throws -> (factor: Factor, recoveryCodes: [String]) {
        try codes.destinations.check(phone, channel: .sms)
        let existing = try await factors.list(userID: user.id)
        let sameNumber = existing.filter { $0.type == "phone" && $0.phone == phone.value }
        guard !sameNumber.contains(where: \.verified) else { throw FactorError.phoneFactorExists }
        let replaced = Set(sameNumber.map(\.id))
        let kept = existing.filter { !replaced.contains($0.id) }
        try factors.checkEnrollable(friendlyName: friendlyName, existing: kept, bearer: bearer)
        for old in sameNumber {
            do {
                _ = try await factors.store.delete(
                    Factors.table, key: ItemKey(.string(user.id), .string(Factor.entry(old.id))),
                    condition: .attributeEquals("status", "unverified"))
            } catch StoreError.conditionFailed {
                throw FactorError.phoneFactorExists  // verified meanwhile
            }
        }
        let now = factors.clock.now
        let factor = Factor(
            id: RandomToken.uuid(), userID: user.id, friendlyName: friendlyName, type: "phone", verified: false,
            createdAt: now * 1000, updatedAt: now * 1000, lastStep: 0, sealedSecret: "", phone: phone.value)
        try await factors.store.put(
            Factors.table, item: factor.item(ttl: (now + Factors.unverifiedLifetime).rounded(.up)),
            condition: .itemNotExists)
        guard !existing.contains(where: \.verified) else { return (factor, []) }
        return (factor, try await factors.issueRecoveryCodes(for: factor, besides: kept))
    }

    /// A challenge of the bearer's phone factor `factorID`, bound to the bearer's session, and
    /// the work, for after the caller's answer, that texts its code. Every limit is counted
    /// before the challenge is written: a refused request leaves nothing.
    public func challenge(
        _ factorID: String, bearer: AccessTokens.Bearer, sourceIP: String?
    ) async throws -> (challenge: FactorChallenge, text: @Sendable () async throws -> Void) {
        let (factor, phone) = try await phoneFactor(factorID, userID: bearer.userID)
        let challenge = FactorChallenge(
            id: RandomToken.uuid(), factorID: factor.id, sessionID: bearer.sessionID,
            expiresAt: (factors.clock.now + Factors.challengeLifetime).rounded(.down))
        let text = try await codes.prepareFactorCode(
            to: phone, issue: Self.issue(of: challenge), app: bearer.app, userID: bearer.userID,
            sessionID: bearer.sessionID,
            sourceIP: sourceIP)
        try await factors.store.put(
            Factors.table, item: challenge.item(userID: bearer.userID), condition: .itemNotExists)
        return (challenge, text)
    }

    /// Checks the texted `code` for the bearer's phone factor `factorID` under its challenge
    /// `challengeID` (this session's, within 5 minutes): right, the session raised to `aal2`
    /// (`Factors.accept`), its new tokens the answer; wrong, `phoneCodeRefused`.
    public func verify(
        _ factorID: String, challengeID: String, code: String, user: User, bearer: AccessTokens.Bearer,
        sourceIP: String?
    ) async throws -> SessionResponse {
        let (factor, phone) = try await phoneFactor(factorID, userID: bearer.userID)
        try await factors.checkMayVerify(factor, bearer: bearer)
        let challenge = try await factors.liveChallenge(challengeID, of: factor, bearer: bearer)
        guard code.utf8.count == 6, code.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else {
            throw FactorError.phoneCodeRefused
        }
        try await FactorGuesses(store: factors.store, clock: factors.clock).count(at: factor, sourceIP: sourceIP)
        guard
            try await CodeTries.count(
                at: ItemKey(.string(factor.userID), .string(FactorChallenge.entry(challenge.id))), in: Factors.table,
                identity: ("id", .string(challenge.id)), limit: PhoneCodes.triesPerCode, store: factors.store),
            try await codes.checkFactorCode(code, to: phone, issue: Self.issue(of: challenge))
        else {
            if factor.verified { await factors.recordRefusedProof(bearer: bearer) }
            throw FactorError.phoneCodeRefused
        }
        return try await factors.accept(
            factor, under: challenge, method: Self.method, step: factor.markedVerified(at: factors.clock.now),
            refused: .factorNotFound, user: user, bearer: bearer, sourceIP: sourceIP)
    }

    /// A verified phone factor's `amr` method (supabase/auth's `MFAPhone`).
    public static let method = "mfa/phone"

    /// The bearer's phone factor `id` and its number: `factorNotFound` for none of that id, or
    /// a factor of another kind.
    private func phoneFactor(_ id: String, userID: String) async throws -> (Factor, PhoneNumber) {
        let factor = try await factors.factor(id, userID: userID)
        guard factor.type == "phone", let phone = factor.phone.flatMap({ PhoneNumber($0) }) else {
            throw FactorError.factorNotFound
        }
        return (factor, phone)
    }

    /// What names `challenge`'s code (with its number): its factor and its own id.
    static func issue(of challenge: FactorChallenge) -> String {
        "factor:\(challenge.factorID):challenge:\(challenge.id)"
    }
}
