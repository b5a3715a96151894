import GatehouseJSON
import StoreCore

extension Factors {
    /// Wrong codes at one factor: 5 per 5 minutes. Only a holder of one of the user's sessions
    /// can try at all, and the owner's next code works again when the window ends.
    public static let guessesPerFactor = RateLimit(name: "mfa-guesses:factor", limit: 5, window: 300)
    /// Wrong codes at one user's factors together: 15 an hour (more factors buy no more tries).
    public static let guessesPerUser = RateLimit(name: "mfa-guesses:user", limit: 15, window: 3600)
    /// Wrong codes per source IP (an IPv6 /64 as one): 30 an hour, across users. No per-app
    /// pool, unlike the sign-in codes' (`CodeGuesses`): strangers with throwaway accounts could
    /// fill it and keep every owner from their second factor, and a guesser needs each target's
    /// password first, which the per-user limit already bounds.
    public static let guessesPerSource = RateLimit.perSource(name: "mfa-guesses:ip", limit: 30, window: 3600)

    /// Checks `code` for the bearer's factor `factorID` under its challenge `challengeID`, made
    /// by this same session within 5 minutes: the code of now's step or one either side, of a
    /// step later than the last one accepted (a code works once). Right, in one transaction:
    /// the factor verified and its step kept (on the condition that no other verify took a step
    /// meanwhile), the challenge spent, and the bearer's session raised to `aal2` with a new
    /// refresh token (`RefreshTokens.raise`); the answer is that session's new tokens. Wrong
    /// codes are counted before the comparison, per source, factor and user, and a right
    /// one is taken back. The user's other sessions still at `aal1` end (as supabase/auth's),
    /// and so do its other unverified factors.
    public func verify(
        _ factorID: String, challengeID: String, code: String, user: User, bearer: AccessTokens.Bearer,
        sourceIP: String?
    ) async throws -> SessionResponse {
        guard let box else { throw FactorError.totpNotEnabled }
        let factor = try await factor(factorID, userID: bearer.userID)
        guard factor.type == "totp" else { throw FactorError.factorNotFound }
        try await checkMayVerify(factor, bearer: bearer)
        let challenge = try await liveChallenge(challengeID, of: factor, bearer: bearer)
        guard Factor.isShaped(code) else { throw FactorError.verificationFailed }
        let guesses = FactorGuesses(store: store, clock: clock)
        try await guesses.count(at: factor, sourceIP: sourceIP)
        guard let step = try factor.acceptedStep(of: code, box: box, at: clock.now) else {
            if factor.verified { await recordRefusedProof(bearer: bearer) }
            throw FactorError.verificationFailed
        }
        return try await accept(
            factor, under: challenge, method: "totp", step: factor.stepTaken(step, at: clock.now),
            // Another verify took this step (or a later one) first.
            refused: .verificationFailed, user: user, bearer: bearer, sourceIP: sourceIP)
    }

    /// Records a second factor's proof refused after it was counted (a verified factor's wrong
    /// TOTP or texted code, a wrong recovery code, a WebAuthn assertion that does not check out)
    /// as a refused sign-in of the bearer's user, after the answer: one more try at the door a
    /// password opened. A factor still being enrolled is not a sign-in: its callers skip it.
    public func recordRefusedProof(bearer: AccessTokens.Bearer) async {
        await sessions.audit.record(.signIn, userID: bearer.userID, app: bearer.app, outcome: .failure(.wrongCode))
    }

    /// A factor not verified yet is a new way in: once the user has a verified one, only an
    /// aal2 session may verify it (as enrolling asks), or a factor someone enrolled with the
    /// password alone would let them past the owner's.
    func checkMayVerify(_ factor: Factor, bearer: AccessTokens.Bearer) async throws {
        if !factor.verified, bearer.sessionAAL != "aal2",
            try await list(userID: bearer.userID).contains(where: \.verified)
        {
            throw FactorError.insufficientAAL(enrolling: true)
        }
    }

    /// The challenge `id` of `factor`, made by the bearer's session and not expired.
    func liveChallenge(_ id: String, of factor: Factor, bearer: AccessTokens.Bearer) async throws -> FactorChallenge {
        guard id.utf8.count <= 64,
            let item = try await store.get(
                Self.table, key: ItemKey(.string(bearer.userID), .string(FactorChallenge.entry(id)))),
            let challenge = FactorChallenge(item: item), challenge.factorID == factor.id,
            challenge.sessionID == bearer.sessionID
        else { throw FactorError.challengeNotFound }
        guard clock.now < challenge.expiresAt else { throw FactorError.challengeExpired }
        return challenge
    }

    /// A right code of any factor (`method` is its `amr` word): in one transaction, the factor's
    /// `step` write (the factor verified, on its condition: `refused` when that fails), the
    /// challenge spent (unless nil: spent already), and the session raised (`raiseSession`); then the user's other
    /// unverified factors, the recovery codes of other enrolments and the sessions still at
    /// `aal1` end, and the try is taken back. The raised session's answer.
    func accept(
        _ factor: Factor, under challenge: FactorChallenge?, method: String, step: WriteOperation,
        refused: FactorError, user: User, bearer: AccessTokens.Bearer, sourceIP: String?
    ) async throws -> SessionResponse {
        // A challenge nil was spent already (a credential's proof spends it before the checks).
        let writes: [WriteOperation] =
            [step]
            + (challenge.map {
                [
                    .delete(
                        table: Self.table,
                        key: ItemKey(.string(factor.userID), .string(FactorChallenge.entry($0.id))),
                        condition: .itemExists)
                ]
            } ?? [])
        let session = try await raiseSession(
            of: user, bearer: bearer, method: method, factorID: factor.id, proving: writes,
            refusal: { $0 == 0 ? refused : FactorError.challengeNotFound })
        try await removeUnverified(userID: factor.userID, keeping: factor.id)
        try await settleRecoveryCodes(userID: factor.userID, verified: factor.id)
        try await sessions.refreshTokens.endSessionsBelowAAL2(userID: factor.userID)
        await FactorGuesses(store: store, clock: clock).takeBack(at: factor, sourceIP: sourceIP)
        if !factor.verified { await sessions.audit.record(.factorAdded, userID: factor.userID, app: bearer.app) }
        return session
    }
}
