import GatehouseJSON
import StoreCore

/// Rotating refresh tokens, grouped in sessions (token families), kept only as hashes.
///
/// A session is an item in `Sessions` (keyed by user and session id); it lives while it is
/// there. Each token is an item in `RefreshTokens` keyed by the SHA-256 of the token, `active`
/// until it is rotated. Refreshing an active token rotates it (per `SessionSettings.rotation`)
/// in one transaction that requires it to be still active. A rotated-out token presented again
/// within the grace (the client lost the response) is accepted once more and the family goes
/// on with a new token, replacing the successor the client never got; presented again after
/// that, it ends the whole session: someone has a copy.
public struct RefreshTokens: Sendable {
    public static let tokensTable = "RefreshTokens"
    public static let sessionsTable = "Sessions"

    private let store: any KeyValueStore
    private let clock: any StoreClock
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
    /// transaction that does more, and the grant they make.
    public func sessionStart(
        userID: String, app: String, provider: String
    ) -> (grant: RefreshGrant, writes: [WriteOperation]) {
        let now = clock.now
        let sessionID = RandomToken.urlSafe(byteCount: 16)
        let sessionTTL = sessionLifetime(from: now)
        let (token, item) = newToken(
            userID: userID, app: app, sessionID: sessionID, provider: provider, now: now, sessionTTL: sessionTTL)
        let writes: [WriteOperation] = [
            .put(
                table: Self.sessionsTable,
                item: [
                    "userId": .string(userID), "sessionId": .string(sessionID), "app": .string(app),
                    "createdAt": .number(now * 1000), "ttl": .number(sessionTTL),
                ],
                condition: .itemNotExists),
            .put(table: Self.tokensTable, item: item, condition: .itemNotExists),
        ]
        return (grant(token, item), writes)
    }

    /// Uses `token`: the grant to answer with (the same token, or its successor), or
    /// `invalidRefreshToken` (unknown, expired, or its session ended) or `refreshTokenReused`
    /// (which has just ended the session).
    public func refresh(_ token: String) async throws -> RefreshGrant {
        let hash = Self.hash(token)
        guard let item = try await store.get(Self.tokensTable, key: ItemKey(.string(hash))),
            let userID = item["userId"]?.stringValue, let sessionID = item["sessionId"]?.stringValue,
            let app = item["app"]?.stringValue, let provider = item["provider"]?.stringValue,
            case .number(let issuedAt)? = item["issuedAt"],
            case .number(let expiresAt)? = item["expiresAt"]
        else { throw RefreshError.invalidRefreshToken }
        let session = ItemKey(.string(userID), .string(sessionID))
        let now = clock.now
        guard now * 1000 < expiresAt else { throw RefreshError.invalidRefreshToken }

        var rotated: Item? = item
        if item["status"]?.stringValue == "active" {
            guard rotates(issuedAt: issuedAt, expiresAt: expiresAt, now: now) else {
                guard try await store.get(Self.sessionsTable, key: session) != nil else {
                    throw RefreshError.invalidRefreshToken
                }
                return grant(token, item)
            }
            do {
                // The rotation's transaction requires the session, so it is not read first.
                return try await rotate(
                    hash, item, userID: userID, app: app, sessionID: sessionID, provider: provider, now: now,
                    replacing: nil)
            } catch StoreError.transactionCanceled(index: 0, _, _) {
                // A concurrent refresh rotated it first: from here on it is a rotated-out token.
                rotated = try await store.get(Self.tokensTable, key: ItemKey(.string(hash)))
            }
        }
        // A rotated-out token of an ended session is merely invalid, not a reuse.
        guard try await store.get(Self.sessionsTable, key: session) != nil else {
            throw RefreshError.invalidRefreshToken
        }
        if case .number(let rotatedAt)? = rotated?["rotatedAt"], now - rotatedAt / 1000 <= settings.reuseGrace,
            case .string(let successor)? = rotated?["successorHash"]
        {
            do {
                return try await rotate(
                    hash, item, userID: userID, app: app, sessionID: sessionID, provider: provider, now: now,
                    replacing: successor)
            } catch StoreError.transactionCanceled(index: 0, _, _) {
                // The one grace use is spent.
            }
        }
        _ = try await store.delete(Self.sessionsTable, key: session, condition: nil)
        throw RefreshError.refreshTokenReused
    }

    /// Ends the session `token` belongs to, or with `everySession` all of its user's sessions.
    /// An unknown token changes nothing and is not an error (no oracle).
    public func logout(_ token: String, everySession: Bool) async throws {
        guard let item = try await store.get(Self.tokensTable, key: ItemKey(.string(Self.hash(token)))),
            let userID = item["userId"]?.stringValue, let sessionID = item["sessionId"]?.stringValue
        else { return }
        try await endSessions(userID: userID, only: everySession ? nil : sessionID)
    }

    /// Ends `userID`'s sessions (all of them, or only `sessionID`).
    public func endSessions(userID: String, only sessionID: String? = nil) async throws {
        try await Self.endSessions(userID: userID, only: sessionID, in: store)
    }

    /// Ends `userID`'s sessions in `store`: what account deletion needs, without settings.
    public static func endSessions(
        userID: String, only sessionID: String? = nil, in store: any KeyValueStore
    )
        async throws
    {
        if let sessionID {
            _ = try await store.delete(
                Self.sessionsTable, key: ItemKey(.string(userID), .string(sessionID)), condition: nil)
            return
        }
        let sessions = try await store.query(
            Self.sessionsTable, partition: .string(userID), sortKey: nil, limit: nil, ascending: true)
        for session in sessions {
            guard let id = session["sessionId"]?.stringValue else { continue }
            _ = try await store.delete(Self.sessionsTable, key: ItemKey(.string(userID), .string(id)), condition: nil)
        }
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
    /// client never received), the condition is that the grace is unspent, and the lost
    /// successor is deleted.
    ///
    /// The session must outlive its newest token. It is given two token lifetimes, and the
    /// tokens carry its `ttl` (`sessionTtl`), so a rotation extends it only once the new token
    /// would outlive it (about once per token lifetime) and otherwise only checks that it is
    /// still there: writing it on every rotation cost a third of the rotation's pages.
    private func rotate(
        _ hash: String, _ current: Item, userID: String, app: String, sessionID: String, provider: String,
        now: Double, replacing lost: String?
    ) async throws -> RefreshGrant {
        let carried = current["sessionTtl"]?.numberValue ?? 0
        let extends = carried < (now + settings.refreshTokenLifetime).rounded(.up)
        let sessionTTL = extends ? sessionLifetime(from: now) : carried
        let (token, item) = newToken(
            userID: userID, app: app, sessionID: sessionID, provider: provider, now: now, sessionTTL: sessionTTL)
        let key = ItemKey(.string(hash))
        let successor = item["tokenHash"]!
        var writes: [WriteOperation]
        if let lost {
            writes = [
                .update(
                    table: Self.tokensTable, key: key,
                    actions: [.set("graceUsed", true), .set("successorHash", successor)],
                    condition: .attributeEquals("graceUsed", false)),
                .delete(table: Self.tokensTable, key: ItemKey(.string(lost)), condition: nil),
            ]
        } else {
            writes = [
                .update(
                    table: Self.tokensTable, key: key,
                    actions: [
                        .set("status", "rotated"), .set("rotatedAt", .number(now * 1000)),
                        .set("successorHash", successor),
                    ],
                    condition: .attributeEquals("status", "active"))
            ]
        }
        let session = ItemKey(.string(userID), .string(sessionID))
        writes += [
            .put(table: Self.tokensTable, item: item, condition: .itemNotExists),
            extends
                ? .update(
                    table: Self.sessionsTable, key: session, actions: [.set("ttl", .number(sessionTTL))],
                    condition: .itemExists)
                : .check(table: Self.sessionsTable, key: session, condition: .itemExists),
        ]
        do {
            try await store.transactWrite(writes)
        } catch StoreError.transactionCanceled(let index, _, _) where index == writes.count - 1 {
            // The session ended meanwhile (a logout, or reuse found by a concurrent refresh).
            throw RefreshError.invalidRefreshToken
        }
        return grant(token, item)
    }

    /// A session's `ttl` from `now`: two token lifetimes.
    private func sessionLifetime(from now: Double) -> Double {
        (now + 2 * settings.refreshTokenLifetime).rounded(.up)
    }

    private func newToken(
        userID: String, app: String, sessionID: String, provider: String, now: Double, sessionTTL: Double
    ) -> (String, Item) {
        let token = RandomToken.urlSafe(byteCount: 96)  // 128 characters
        let expires = now + settings.refreshTokenLifetime
        let item: Item = [
            "tokenHash": .string(Self.hash(token)), "userId": .string(userID), "app": .string(app),
            "sessionId": .string(sessionID), "provider": .string(provider), "status": "active", "graceUsed": false,
            "issuedAt": .number(now * 1000), "expiresAt": .number((expires * 1000).rounded(.down)),
            "ttl": .number(expires.rounded(.up)), "sessionTtl": .number(sessionTTL),
        ]
        return (token, item)
    }

    private func grant(_ token: String, _ item: Item) -> RefreshGrant {
        RefreshGrant(
            token: token, expiresAt: item["expiresAt"]?.numberValue ?? 0, userID: item["userId"]?.stringValue ?? "",
            app: item["app"]?.stringValue ?? "", sessionID: item["sessionId"]?.stringValue ?? "",
            provider: item["provider"]?.stringValue ?? "")
    }
}
