import GatehouseJSON
import StoreCore

extension Passkeys {
    /// A new challenge for `purpose`, asked by `app` (a registration's by `userID` in the session
    /// `sessionID`): 32 random bytes, kept for `challengeLifetime`.
    public func issue(
        _ purpose: PasskeyChallenge.Purpose, app: String, userID: String? = nil, sessionID: String? = nil
    ) async throws -> PasskeyChallenge {
        let challenge = PasskeyChallenge(
            id: RandomToken.uuid(), purpose: purpose, challenge: RandomToken.urlSafe(byteCount: 32), app: app,
            userID: userID, sessionID: sessionID, expiresAt: clock.now + Self.challengeLifetime)
        try await store.put(
            Self.table, item: challenge.item(lifetime: Self.challengeLifetime), condition: .itemNotExists)
        return challenge
    }

    /// Spends challenge `id` of `purpose` for `app` (a registration's, `userID`'s from the
    /// session `sessionID`): one conditional delete, so however many answers race, one gets it.
    /// Unknown, spent, or another's: `PasskeyError.challengeNotFound`; past its lifetime,
    /// `challengeExpired` (spent all the same).
    public func spend(
        _ id: String, purpose: PasskeyChallenge.Purpose, app: String, userID: String? = nil, sessionID: String? = nil
    ) async throws -> PasskeyChallenge {
        guard id.utf8.count <= 64, !id.isEmpty else { throw PasskeyError.challengeNotFound }
        let key = PasskeyChallenge.key(id, purpose: purpose, userID: userID)
        let condition: WriteCondition =
            sessionID.map { .attributeEquals("sessionId", .string($0)) } ?? .attributeEquals("app", .string(app))
        let item: Item?
        do {
            item = try await store.delete(Self.table, key: key, condition: condition)
        } catch StoreError.conditionFailed {
            throw PasskeyError.challengeNotFound
        }
        guard let item, let challenge = PasskeyChallenge(item: item, userID: userID), challenge.purpose == purpose,
            challenge.app == app
        else { throw PasskeyError.challengeNotFound }
        guard clock.now < challenge.expiresAt else { throw PasskeyError.challengeExpired }
        return challenge
    }

    /// Stores `passkey` with its credential's owner item, in one transaction that requires its
    /// user to still exist (`SessionError.userNotFound`, a deletion that raced it): a credential
    /// id already registered (to anyone) is `PasskeyError.credentialExists`. The count is
    /// checked before (`maximumPerUser`).
    public func register(_ passkey: Passkey, credentialID: [UInt8]) async throws {
        guard try await list(userID: passkey.userID).count < Self.maximumPerUser else {
            throw PasskeyError.tooManyPasskeys
        }
        let owner: Item = [
            "userId": Self.ownerKey(credentialID).partition, "entry": "owner", "owner": .string(passkey.userID),
            "passkeyId": .string(passkey.id),
        ]
        do {
            try await store.transactWrite([
                .put(table: Self.table, item: owner, condition: .itemNotExists),
                .put(table: Self.table, item: passkey.item, condition: .itemNotExists),
                UserDirectory.existence(of: passkey.userID),
            ])
        } catch StoreError.transactionCanceled(index: 0, _, _) {
            throw PasskeyError.credentialExists
        } catch StoreError.transactionCanceled(index: 2, _, _) {
            throw SessionError.userNotFound
        }
        await audit.record(.passkeyAdded, userID: passkey.userID, app: nil)
    }

    /// The write that records a sign-in with `passkey` at `count` (and its backup state now),
    /// for the session's own transaction: on condition the stored counter is still the one the
    /// assertion was checked against, so two sign-ins racing on one counter start one session.
    public func use(_ passkey: Passkey, count: UInt32, backedUp: Bool) -> WriteOperation {
        .update(
            table: Self.table, key: passkey.key,
            actions: [
                .set("signCount", .number(Double(count))), .set("backedUp", .bool(backedUp)),
                .set("lastUsedAt", .number((clock.now * 1000).rounded(.down))),
            ],
            condition: .attributeEquals("signCount", .number(Double(passkey.signCount))))
    }

    /// Marks `passkey` as flagged (its counter went back: a clone, maybe): it signs nobody in
    /// from now on, and the sessions it signed in end.
    public func flag(_ passkey: Passkey) async throws {
        _ = try await store.update(
            Self.table, key: passkey.key, actions: [.set("flagged", .bool(true))], condition: .itemExists)
        try await refreshTokens.endSessions(userID: passkey.userID, startedBy: passkey.id)
    }
}
