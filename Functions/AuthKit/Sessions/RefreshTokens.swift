import GatehouseJSON
import StoreCore

/// Rotating refresh tokens, grouped in sessions (token families), kept only as hashes.
///
/// A session is an item in `Sessions` (keyed by user and session id, `SessionState`); it lives
/// while it is there, and never past its absolute end (`SessionSettings.maximumSessionLifetime`
/// after it started), which every token of the session carries (`sessionEndsAt`). A refresh ends
/// by reading the session's row (with its user, for `SessionService`) in one round trip: what
/// the new access token says comes from there. Each token is an item
/// in `RefreshTokens` keyed by the SHA-256 of the token, `active` until it is rotated, and
/// `used` from its first use. Refreshing an active token rotates it (per
/// `SessionSettings.rotation`) in one transaction that requires it to be still active.
///
/// A rotated-out token presented again within the grace (the client lost the response) is
/// accepted once more, only while its successor was never used, both conditions of the grace
/// use's own transaction: the family goes on with a new token and the successor the client never
/// got is `revoked`. Any other use of a rotated-out or revoked token ends the whole session:
/// someone has a copy.
public struct RefreshTokens: Sendable {
    public static let tokensTable = "RefreshTokens"
    public static let sessionsTable = "Sessions"

    let store: any KeyValueStore
    let clock: any StoreClock
    private let settings: SessionSettings

    public init(store: any KeyValueStore, clock: any StoreClock, settings: SessionSettings) {
        self.store = store
        self.clock = clock
        self.settings = settings
    }

    /// A new session for `userID` in `app`, signed in with `provider`, with its first token.
    public func startSession(userID: String, app: String, provider: String = "email") async throws -> RefreshGrant {
        let (grant, writes) = sessionStart(userID: userID, app: app, provider: provider)
        try await store.transactWrite(writes)
        return grant
    }

    /// The writes that start a session (the session and its first token, each new), for a
    /// transaction that does more, and the grant they make. `proof` names the sign-in in the
    /// session's `amr` when `provider` does not say it (a password: `email` too). With
    /// `secondFactor` (proved before the session started), the session starts at `aal2`, raised
    /// by that factor as `raise` would have raised it. `startedBy` names the credential that
    /// signed it in (a passkey's id), so that its removal ends it (`endSessions(userID:startedBy:)`).
    public func sessionStart(
        userID: String, app: String, provider: String, proof: String? = nil, secondFactor: SecondFactorProof? = nil,
        startedBy: String? = nil
    ) -> (grant: RefreshGrant, writes: [WriteOperation]) {
        let now = clock.now
        let started = SessionState(
            userID: userID, sessionID: RandomToken.urlSafe(byteCount: 16), app: app, method: provider, proof: proof,
            startedAt: now, endsAt: (now + settings.maximumSessionLifetime).rounded(.down))
        let session = secondFactor.map { started.raised(by: $0.method, at: now.rounded(.down)) } ?? started
        let lineage = TokenLineage(
            userID: userID, sessionID: session.sessionID, sessionEndsAt: session.endsAt,
            compatibility: (app, provider))
        let sessionTTL = sessionLifetime(from: now, endsAt: lineage.sessionEndsAt)
        let (token, item) = newToken(lineage, now: now, sessionTTL: sessionTTL)
        var row = session.item(ttl: sessionTTL)
        if let secondFactor { row["factorId"] = .string(secondFactor.factorID) }
        if let startedBy { row["startedBy"] = .string(startedBy) }
        let writes: [WriteOperation] = [
            .put(table: Self.sessionsTable, item: row, condition: .itemNotExists),
            .put(table: Self.tokensTable, item: item, condition: .itemNotExists),
        ]
        return (grant(token, item, session), writes)
    }

    /// Uses `token`: the grant to answer with (the same token, or its successor), or
    /// `invalidRefreshToken` (unknown, expired, past its session's end, or its session ended) or
    /// `refreshTokenReused` (which has just ended the session). With `limit`, each use of a live
    /// token counts against its user (`RateLimiter`, exact under races): in the rotation's own
    /// transaction when the token rotates, else before anything else happens. Over it,
    /// `SignInError.rateLimited` and the token is untouched.
    public func refresh(_ token: String, limit: RateLimit? = nil) async throws -> RefreshGrant {
        try await refresh(token, limit: limit, alongWith: nil).grant
    }

    /// What a refresh of `token` would answer for, read without using it: its session's state
    /// and the item keyed by its user's id in `companion`, in one round trip; nil when the token
    /// or its session is gone. An access-token hook runs on it before the token is used, so that
    /// a failing hook leaves the token as it was.
    func preview(
        _ token: String, alongWith companion: String
    ) async throws -> (session: SessionState, companion: Item?)? {
        guard let item = try await store.get(Self.tokensTable, key: ItemKey(.string(Self.hash(token)))),
            let current = StoredRefreshToken(item)
        else { return nil }
        let items = try await store.transactGet([
            (table: Self.sessionsTable, key: current.session), (companion, ItemKey(.string(current.lineage.userID))),
        ])
        guard let row = items[0], let session = SessionState(row, legacyMethod: current.lineage.compatibility?.provider)
        else { return nil }
        return (session, items[1])
    }

    /// `refresh`, reading with the session's row the item keyed by its user's id in `companion`
    /// (`Users`), in the same round trip.
    func refresh(
        _ token: String, limit: RateLimit?, alongWith companion: String?
    ) async throws -> (grant: RefreshGrant, companion: Item?) {
        let (answered, item, current) = try await use(token, limit: limit)
        var keys = [(table: Self.sessionsTable, key: current.session)]
        if let companion { keys.append((companion, ItemKey(.string(current.lineage.userID)))) }
        let items = try await store.transactGet(keys)
        // Ended since the token was used (a logout, or reuse found by a concurrent refresh), or
        // past the end its row now gives it.
        guard let row = items[0],
            let session = SessionState(row, legacyMethod: current.lineage.compatibility?.provider),
            clock.now < session.endsAt,
            // A token issued before the session was raised to aal2 is not the session's any more.
            current.issuedAt >= row[Self.tokensNotBefore]?.numberValue ?? 0
        else { throw RefreshError.invalidRefreshToken }
        return (grant(answered, item, session), companion == nil ? nil : items[1])
    }

    /// Uses `token`: the token to answer with (the same, or its successor) and its item, and the
    /// token that was presented.
    private func use(
        _ token: String, limit: RateLimit?
    ) async throws -> (token: String, item: Item, presented: StoredRefreshToken) {
        let hash = Self.hash(token)
        guard let item = try await store.get(Self.tokensTable, key: ItemKey(.string(hash))),
            let current = StoredRefreshToken(item)
        else { throw RefreshError.invalidRefreshToken }
        let now = clock.now
        guard now * 1000 < current.expiresAt, now < current.sessionEndsAt else {
            throw RefreshError.invalidRefreshToken
        }
        var rotated: Item? = item
        if item["status"]?.stringValue == "active" {
            if let issued = try await useActive(token, hash, item, current, now: now, limit: limit) {
                return (issued.token, issued.item, current)
            }
            // A concurrent refresh rotated it first: from here on it is a rotated-out token. Gone
            // instead, it expired since it was read: invalid, not a reuse.
            rotated = try await store.get(Self.tokensTable, key: ItemKey(.string(hash)))
            guard rotated != nil else { throw RefreshError.invalidRefreshToken }
        } else {
            try await countUse(of: current, against: limit)
        }
        // A rotated-out token of an ended session is merely invalid, not a reuse.
        guard try await store.get(Self.sessionsTable, key: current.session) != nil else {
            throw RefreshError.invalidRefreshToken
        }
        if case .number(let rotatedAt)? = rotated?["rotatedAt"], now - rotatedAt / 1000 <= settings.reuseGrace,
            case .string(let successor)? = rotated?["successorHash"]
        {
            do {
                let issued = try await rotate(hash, current, now: now, replacing: successor)
                return (issued.token, issued.item, current)
            } catch StoreError.transactionCanceled(let index, _, _) where index < 2 {
                // The one grace use is spent, or the successor was used: a copy is in other hands.
            }
        }
        _ = try await store.delete(Self.sessionsTable, key: current.session, condition: nil)
        throw RefreshError.refreshTokenReused
    }

    /// An active token's use: rotated, the use counted in the rotation's own transaction (one
    /// write fewer than counting first), or kept when no rotation is due, counted first. Nil when
    /// a concurrent refresh rotated it first; the use has then been counted all the same.
    private func useActive(
        _ token: String, _ hash: String, _ item: Item, _ current: StoredRefreshToken, now: Double,
        limit: RateLimit?
    ) async throws -> (token: String, item: Item)? {
        let rotating = rotates(issuedAt: current.issuedAt, expiresAt: current.expiresAt, now: now)
        if !rotating { try await countUse(of: current, against: limit) }
        do {
            guard rotating else { return try await keep(token, hash, item, current) }
            // The rotation's transaction requires the session, so it is not read first.
            return try await rotate(hash, current, now: now, replacing: nil, counting: limit)
        } catch StoreError.transactionCanceled(index: 0, _, _) {
            // The rotation's transaction was canceled whole, its count with it.
            if rotating { try await countUse(of: current, against: limit) }
            return nil
        }
    }

    /// Counts a use of `current` against its user's `limit`, when there is one:
    /// `SignInError.rateLimited` over it.
    private func countUse(of current: StoredRefreshToken, against limit: RateLimit?) async throws {
        guard let limit,
            case .limited(let seconds) = try await RateLimiter(store: store, clock: clock).hit(
                limit, subject: current.lineage.userID)
        else { return }
        throw SignInError.rateLimited(retryAfter: seconds)
    }

    /// Answers with the same token (no rotation due). Its first use marks it `used`, in a
    /// transaction that requires its session, which ends its predecessor's grace; a later use
    /// writes nothing (the session's row, read last, is the check).
    private func keep(
        _ token: String, _ hash: String, _ item: Item, _ current: StoredRefreshToken
    ) async throws -> (token: String, item: Item) {
        guard item["used"] != true else { return (token, item) }
        do {
            try await store.transactWrite([
                .update(
                    table: Self.tokensTable, key: ItemKey(.string(hash)), actions: [.set("used", true)],
                    condition: .attributeEquals("status", "active")),
                .check(table: Self.sessionsTable, key: current.session, condition: .itemExists),
            ])
        } catch StoreError.transactionCanceled(index: 1, _, _) {
            throw RefreshError.invalidRefreshToken
        }
        return (token, item)
    }

    /// Ends the session `token` belongs to, or with `everySession` all of its user's sessions,
    /// and answers the user whose sessions ended (for the audit log): nil when none did. A token
    /// whose own session has ended (logged out, or ended by a reuse) ends nothing, not even with
    /// `everySession`: it is no longer the user's, and an old copy of it must not sign them out
    /// everywhere. An unknown token changes nothing and is not an error (no oracle): nil too.
    @discardableResult
    public func logout(_ token: String, everySession: Bool) async throws -> String? {
        guard let item = try await store.get(Self.tokensTable, key: ItemKey(.string(Self.hash(token)))),
            let userID = item["userId"]?.stringValue, let sessionID = item["sessionId"]?.stringValue
        else { return nil }
        let ended =
            everySession
            ? try await Self.endSessions(userID: userID, in: store, whileLive: sessionID) { _ in true }
            : try await Self.endSessions(userID: userID, only: sessionID, in: store)
        return ended > 0 ? userID : nil
    }

    /// Ends `userID`'s sessions (all of them, or only `sessionID`).
    public func endSessions(userID: String, only sessionID: String? = nil) async throws {
        try await Self.endSessions(userID: userID, only: sessionID, in: store)
    }

    /// Ends every session of `userID` but `kept` (a password change keeps the session it was
    /// made in; Supabase's `logout?scope=others`).
    public func endSessions(userID: String, except kept: String) async throws {
        try await Self.endSessions(userID: userID, only: nil, except: kept, in: store)
    }

    /// Ends every session of `userID` that began with `method` (an identity unlinked: the sessions
    /// it started end with it).
    public func endSessions(userID: String, method: String) async throws {
        try await endSessions(userID: userID) { $0["method"]?.stringValue == method }
    }

    /// Ends every session of `userID` that the credential `credential` signed in (a passkey
    /// removed or flagged: what it started ends with it).
    public func endSessions(userID: String, startedBy credential: String) async throws {
        try await endSessions(userID: userID) { $0["startedBy"]?.stringValue == credential }
    }

    /// Ends every session of `userID` whose row `matches` (`endSessions(userID:in:where:)`).
    func endSessions(userID: String, where matches: (Item) -> Bool) async throws {
        try await Self.endSessions(userID: userID, in: store, where: matches)
    }

    /// Ends every session of `userID` in `store` whose row `matches`: one read of the user's
    /// rows, then a delete of each; answers how many it deleted. With `live`, only if that
    /// session is among the rows (else none). Needs no settings (the admin operations use it).
    @discardableResult
    static func endSessions(
        userID: String, in store: any KeyValueStore, whileLive live: String? = nil, where matches: (Item) -> Bool
    ) async throws -> Int {
        let sessions = try await store.query(
            Self.sessionsTable, partition: .string(userID), sortKey: nil, limit: nil, ascending: true)
        if let live, !sessions.contains(where: { $0["sessionId"]?.stringValue == live }) { return 0 }
        var ended = 0
        for session in sessions where matches(session) {
            guard let id = session["sessionId"]?.stringValue else { continue }
            let deleted = try await store.delete(
                Self.sessionsTable, key: Self.sessionKey(userID: userID, sessionID: id), condition: nil)
            if deleted != nil { ended += 1 }
        }
        return ended
    }

    /// Ends `userID`'s sessions in `store` (all of them but `kept`, or only `sessionID`): what
    /// account deletion needs, without settings. Answers how many ended (0 when they had
    /// already).
    @discardableResult
    public static func endSessions(
        userID: String, only sessionID: String? = nil, except kept: String? = nil, in store: any KeyValueStore
    ) async throws -> Int {
        if let sessionID {
            let deleted = try await store.delete(
                Self.sessionsTable, key: sessionKey(userID: userID, sessionID: sessionID), condition: nil)
            return deleted == nil ? 0 : 1
        }
        return try await endSessions(userID: userID, in: store) { $0["sessionId"]?.stringValue != kept }
    }

    /// The key of `userID`'s session `sessionID` in `Sessions`.
    public static func sessionKey(userID: String, sessionID: String) -> ItemKey {
        ItemKey(.string(userID), .string(sessionID))
    }

    /// The SHA-256 of a token, in hex: what is stored.
    public static func hash(_ token: String) -> String {
        SHA256Hex.of(token.utf8)
    }

    private func rotates(issuedAt: Double, expiresAt: Double, now: Double) -> Bool {
        switch settings.rotation {
        case .everyUse: return true
        case .lifetimeFraction(let fraction):
            return now * 1000 - issuedAt >= fraction * (expiresAt - issuedAt)
        }
    }

    /// Marks the token at `hash` rotated and puts its successor, in one transaction whose first
    /// write's condition decides who may do it. For a grace use (`replacing` the successor the
    /// client never received), the conditions are that the grace is unspent and that the
    /// successor was never used; the successor is then revoked, not deleted, so that a later use
    /// of it is recognised as a reuse.
    ///
    /// The session must outlive its newest token. It is given two token lifetimes (never past
    /// its end), and the tokens carry its `ttl` (`sessionTtl`), so a rotation extends it only
    /// once the new token would outlive it (about once per token lifetime) and otherwise only
    /// checks that it is still there: writing it on every rotation cost a third of the
    /// rotation's pages.
    ///
    /// With `limit`, the use is counted by the transaction's last write, which cancels it at the
    /// limit (`SignInError.rateLimited`); a transaction canceled for its session still counts the
    /// use, as counting first would have.
    private func rotate(
        _ hash: String, _ current: StoredRefreshToken, now: Double, replacing lost: String?,
        counting limit: RateLimit? = nil
    ) async throws -> (token: String, item: Item) {
        let expires = tokenExpiry(from: now, sessionEndsAt: current.sessionEndsAt)
        let extends = current.sessionTTL < expires.rounded(.up)
        let sessionTTL = extends ? sessionLifetime(from: now, endsAt: current.sessionEndsAt) : current.sessionTTL
        let (token, item) = newToken(current.lineage, now: now, sessionTTL: sessionTTL)
        let key = ItemKey(.string(hash))
        let successor = item["tokenHash"]!
        var writes: [WriteOperation]
        if let lost {
            writes = [
                .update(
                    table: Self.tokensTable, key: key,
                    actions: [.set("graceUsed", true), .set("successorHash", successor)],
                    condition: .attributeEquals("graceUsed", false)),
                .update(
                    table: Self.tokensTable, key: ItemKey(.string(lost)),
                    actions: [.set("status", "revoked"), .set("revokedAt", .number(now * 1000))],
                    condition: .attributeEquals("used", false)),
            ]
        } else {
            writes = [
                .update(
                    table: Self.tokensTable, key: key,
                    actions: [
                        .set("status", "rotated"), .set("used", true), .set("rotatedAt", .number(now * 1000)),
                        .set("successorHash", successor),
                    ],
                    condition: .attributeEquals("status", "active"))
            ]
        }
        writes += [
            .put(table: Self.tokensTable, item: item, condition: .itemNotExists),
            extends
                ? .update(
                    table: Self.sessionsTable, key: current.session, actions: [.set("ttl", .number(sessionTTL))],
                    condition: .itemExists)
                : .check(table: Self.sessionsTable, key: current.session, condition: .itemExists),
        ]
        let sessionCheck = writes.count - 1
        let counter = limit.map {
            RateLimiter(store: store, clock: clock).hitWrite($0, subject: current.lineage.userID)
        }
        if let counter { writes.append(counter.write) }
        do {
            try await store.transactWrite(writes)
        } catch StoreError.transactionCanceled(let index, _, _) where index == sessionCheck {
            // The session ended meanwhile (a logout, or reuse found by a concurrent refresh).
            try await countUse(of: current, against: limit)
            throw RefreshError.invalidRefreshToken
        } catch StoreError.transactionCanceled(let index, _, _) where index > sessionCheck {
            throw SignInError.rateLimited(retryAfter: counter?.retryAfter ?? 1)
        }
        return (token, item)
    }

    /// A session's `ttl` from `now`: two token lifetimes, never past its end.
    func sessionLifetime(from now: Double, endsAt: Double) -> Double {
        min(now + 2 * settings.refreshTokenLifetime, endsAt).rounded(.up)
    }

    /// When a token made at `now` expires: one token lifetime later, or at its session's end.
    private func tokenExpiry(from now: Double, sessionEndsAt: Double) -> Double {
        min(now + settings.refreshTokenLifetime, sessionEndsAt)
    }

    /// A new token of `lineage`'s session, and its item.
    func newToken(_ lineage: TokenLineage, now: Double, sessionTTL: Double) -> (String, Item) {
        let token = RandomToken.urlSafe(byteCount: 96)  // 128 characters
        let expires = tokenExpiry(from: now, sessionEndsAt: lineage.sessionEndsAt)
        var item: Item = [
            "tokenHash": .string(Self.hash(token)), "userId": .string(lineage.userID),
            "sessionId": .string(lineage.sessionID), "status": "active", "used": false, "graceUsed": false,
            "issuedAt": .number(now * 1000), "expiresAt": .number((expires * 1000).rounded(.down)),
            "ttl": .number(expires.rounded(.up)), "sessionTtl": .number(sessionTTL),
            "sessionEndsAt": .number(lineage.sessionEndsAt),
        ]
        if let (app, provider) = lineage.compatibility {
            item["app"] = .string(app)
            item["provider"] = .string(provider)
        }
        return (token, item)
    }

    private func grant(_ token: String, _ item: Item, _ session: SessionState) -> RefreshGrant {
        RefreshGrant(token: token, expiresAt: item["expiresAt"]?.numberValue ?? 0, session: session)
    }
}
