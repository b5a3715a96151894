import GatehouseJSON
import StoreCore

extension Factors {
    /// A new unverified WebAuthn factor of `user` (signed in as `bearer`): no secret, no
    /// credential until its first verify registers one. The rules of every new factor
    /// (`checkEnrollable`: names, at most 10, `aal2` once one is verified), and at the user's
    /// first enrolment the recovery codes that come in force with it, as a TOTP enrolment's.
    public func enrollCredentialFactor(
        friendlyName: String, for user: User, bearer: AccessTokens.Bearer
    ) async throws -> (factor: Factor, recoveryCodes: [String]) {
        let existing = try await list(userID: user.id)
        try checkEnrollable(friendlyName: friendlyName, existing: existing, bearer: bearer)
        let now = clock.now
        let factor = Factor(
            id: RandomToken.uuid(), userID: user.id, friendlyName: friendlyName, type: FactorCredential.factorType,
            verified: false, createdAt: now * 1000, updatedAt: now * 1000, lastStep: 0, sealedSecret: "")
        try await store.put(
            Self.table, item: factor.item(ttl: (now + Self.unverifiedLifetime).rounded(.up)), condition: .itemNotExists)
        guard !existing.contains(where: \.verified) else { return (factor, []) }
        return (factor, try await issueRecoveryCodes(for: factor, besides: existing))
    }

    /// The bearer's WebAuthn factor `id`: `factorNotFound` for none of that id, or another kind.
    public func credentialFactor(_ id: String, userID: String) async throws -> Factor {
        let factor = try await factor(id, userID: userID)
        guard factor.type == FactorCredential.factorType else { throw FactorError.factorNotFound }
        return factor
    }

    /// A challenge of the bearer's WebAuthn `factor`, bound to the bearer's session for 5
    /// minutes: `create` (a credential to register) while the factor is unverified, `request`
    /// (an assertion by its credential) once verified, under 32 fresh random bytes.
    public func credentialChallenge(of factor: Factor, bearer: AccessTokens.Bearer) async throws -> FactorChallenge {
        let challenge = FactorChallenge(
            id: RandomToken.uuid(), factorID: factor.id, sessionID: bearer.sessionID,
            expiresAt: (clock.now + Self.challengeLifetime).rounded(.down), ceremony: Self.ceremony(of: factor),
            nonce: RandomToken.urlSafe(byteCount: 32))
        try await store.put(Self.table, item: challenge.item(userID: bearer.userID), condition: .itemNotExists)
        return challenge
    }

    /// What checking a credential for the bearer's WebAuthn factor `factorID` begins with: the
    /// factor (an unverified one only from an `aal2` session once another is verified), its
    /// challenge `challengeID` made by this same session within 5 minutes for the factor's state
    /// now, the try counted against the factors' wrong-try limits (`FactorGuesses`: per source,
    /// factor and user), and the challenge spent (one conditional delete): right or wrong, an
    /// answer uses it up, so a replay finds none (`challengeNotFound`).
    public func beginCredentialProof(
        _ factorID: String, challengeID: String, bearer: AccessTokens.Bearer, sourceIP: String?
    ) async throws -> (factor: Factor, challenge: FactorChallenge) {
        let factor = try await credentialFactor(factorID, userID: bearer.userID)
        try await checkMayVerify(factor, bearer: bearer)
        let challenge = try await liveChallenge(challengeID, of: factor, bearer: bearer)
        // A `create` challenge of a factor verified since registers nothing over its credential.
        guard challenge.ceremony == Self.ceremony(of: factor), challenge.nonce != nil else {
            throw FactorError.challengeNotFound
        }
        try await FactorGuesses(store: store, clock: clock).count(at: factor, sourceIP: sourceIP)
        let key = ItemKey(.string(bearer.userID), .string(FactorChallenge.entry(challenge.id)))
        do {
            guard try await store.delete(Self.table, key: key, condition: .itemExists) != nil else {
                throw FactorError.challengeNotFound
            }
        } catch StoreError.conditionFailed {
            throw FactorError.challengeNotFound
        }
        return (factor, challenge)
    }

    /// A credential checked for `factor` (by `beginCredentialProof`'s challenge, spent): in one
    /// transaction, `credential` kept on the factor (registered: the factor verified, on the
    /// condition that it still is not; asserted: its counter, on the condition that it is still
    /// the one checked) and the bearer's session raised to `aal2` with `amr` `mfa/webauthn`
    /// (`accept`: the user's other unverified factors and `aal1` sessions end, the try is taken
    /// back). The raised session's new tokens.
    public func acceptCredential(
        _ factor: Factor, credential: FactorCredential, user: User, bearer: AccessTokens.Bearer, sourceIP: String?
    ) async throws -> SessionResponse {
        let now = clock.now
        var actions: [UpdateAction] = [
            .set("signCount", .number(Double(credential.signCount))), .set("updatedAt", .number(now * 1000)),
        ]
        let condition: WriteCondition
        if let stored = factor.credential {
            condition = .attributeEquals("signCount", .number(Double(stored.signCount)))
        } else {
            actions += [
                .set("credentialId", .string(credential.id)), .set("publicKey", .string(credential.publicKey)),
                .set("status", "verified"), .remove("ttl"),
            ]
            condition = .attributeEquals("status", "unverified")
        }
        let write = WriteOperation.update(
            table: Self.table, key: ItemKey(.string(factor.userID), .string(Factor.entry(factor.id))),
            actions: actions, condition: condition)
        return try await accept(
            factor, under: nil, method: FactorCredential.method, step: write,
            refused: .credentialRefused(reason: "the factor changed meanwhile"),
            user: user, bearer: bearer, sourceIP: sourceIP)
    }

    /// The ceremony a challenge of `factor` asks now.
    static func ceremony(of factor: Factor) -> String { factor.verified ? "request" : "create" }
}
