import GatehouseJSON
import StoreCore

extension RefreshTokens {
    /// The writes that raise `userID`'s session `sessionID` to `aal2` after a second factor
    /// (`method`, e.g. `totp`, of factor `factorID`), for the caller's transaction, and the new
    /// refresh token of the same session they put. The row gets `aal2`, `amr` gains the method
    /// (its timestamp now, most recent first, as supabase/auth orders it) and names the factor;
    /// every later access token of the session, refreshed ones included, says so, since they are
    /// all made from the row. `AccountError.sessionEnded` when the session is gone or over.
    public func raise(
        userID: String, sessionID: String, method: String, factorID: String
    ) async throws -> (grant: RefreshGrant, writes: [WriteOperation]) {
        let key = Self.sessionKey(userID: userID, sessionID: sessionID)
        let now = clock.now
        guard let row = try await store.get(Self.sessionsTable, key: key), let current = SessionState(row),
            now < current.endsAt
        else { throw AccountError.sessionEnded }
        let raised = current.raised(by: method, at: now.rounded(.down))
        let sessionTTL = max(row["ttl"]?.numberValue ?? 0, sessionLifetime(from: now, endsAt: current.endsAt))
        let lineage = TokenLineage(
            userID: userID, sessionID: sessionID, sessionEndsAt: current.endsAt,
            compatibility: (current.app, current.method))
        let (token, item) = newToken(lineage, now: now, sessionTTL: sessionTTL)
        let writes: [WriteOperation] = [
            .update(
                table: Self.sessionsTable, key: key,
                actions: [
                    .set("aal", .string(raised.aal)), .set("amr", .array(raised.amr.map(\.json))),
                    .set("factorId", .string(factorID)), .set("ttl", .number(sessionTTL)),
                    // The session's earlier refresh tokens end here: only the raise's own goes on,
                    // so a copy of one taken before the second factor never refreshes into aal2.
                    .set(Self.tokensNotBefore, .number(now * 1000)),
                ],
                condition: .itemExists),
            .put(table: Self.tokensTable, item: item, condition: .itemNotExists),
        ]
        return (RefreshGrant(token: token, expiresAt: item["expiresAt"]?.numberValue ?? 0, session: raised), writes)
    }

    /// The session row's attribute before which (ms) none of its refresh tokens is good: set
    /// when the session is raised (`raise`), checked by every refresh.
    static let tokensNotBefore = "tokensNotBefore"

    /// Lowers to `aal1` every session of `userID` that factor `factorID` raised (it was
    /// unenrolled), dropping the factor's entries from `amr`.
    public func lowerSessions(userID: String, raisedBy factorID: String) async throws {
        let rows = try await store.query(
            Self.sessionsTable, partition: .string(userID), sortKey: nil, limit: nil, ascending: true)
        for row in rows where row["factorId"]?.stringValue == factorID {
            guard let state = SessionState(row) else { continue }
            let kept = state.amr.filter { !SessionState.secondFactors.contains($0.method) }
            do {
                _ = try await store.update(
                    Self.sessionsTable, key: Self.sessionKey(userID: userID, sessionID: state.sessionID),
                    actions: [.set("aal", "aal1"), .set("amr", .array(kept.map(\.json))), .remove("factorId")],
                    condition: .itemExists)
            } catch StoreError.conditionFailed {
                continue  // ended meanwhile
            }
        }
    }

    /// Ends every session of `userID` below `aal2` (a factor was just verified: the sessions that
    /// never proved it end, as supabase/auth's `InvalidateSessionsWithAALLessThan`).
    public func endSessionsBelowAAL2(userID: String) async throws {
        try await endSessions(userID: userID) { $0["aal"]?.stringValue != "aal2" }
    }
}
