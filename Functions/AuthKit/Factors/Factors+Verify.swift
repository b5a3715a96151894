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
        // A factor not verified yet is a new way in: once the user has a verified one, only an
        // aal2 session may add it (as enrolling asks), or a factor someone enrolled with the
        // password alone would let them past the owner's.
        if !factor.verified, bearer.sessionAAL != "aal2",
            try await list(userID: bearer.userID).contains(where: \.verified)
        {
            throw FactorError.insufficientAAL(enrolling: true)
        }
        let challenge = try await liveChallenge(challengeID, of: factor, bearer: bearer)
        guard Factor.isShaped(code) else { throw FactorError.verificationFailed }
        let guesses = FactorGuesses(store: store, clock: clock)
        try await guesses.count(at: factor, sourceIP: sourceIP)
        guard let step = try factor.acceptedStep(of: code, box: box, at: clock.now) else {
            throw FactorError.verificationFailed
        }
        let session = try await accept(step, of: factor, under: challenge, user: user, bearer: bearer)
        try await removeUnverified(userID: factor.userID, keeping: factor.id)
        try await settleRecoveryCodes(userID: factor.userID, verified: factor.id)
        try await sessions.refreshTokens.endSessionsBelowAAL2(userID: factor.userID)
        await guesses.takeBack(at: factor, sourceIP: sourceIP)
        return session
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

    /// The right code's writes, in one transaction with the session's raise, and the raised
    /// session's answer.
    private func accept(
        _ step: Int64, of factor: Factor, under challenge: FactorChallenge, user: User, bearer: AccessTokens.Bearer
    ) async throws -> SessionResponse {
        let writes: [WriteOperation] = [
            factor.stepTaken(step, at: clock.now),
            .delete(
                table: Self.table,
                key: ItemKey(.string(factor.userID), .string(FactorChallenge.entry(challenge.id))),
                condition: .itemExists),
        ]
        // Another verify took this step (or a later one) first, or spent the challenge.
        return try await raiseSession(
            of: user, bearer: bearer, method: "totp", factorID: factor.id, proving: writes,
            refusal: { $0 == 0 ? FactorError.verificationFailed : FactorError.challengeNotFound })
    }
}
