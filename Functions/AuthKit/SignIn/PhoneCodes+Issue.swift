import GatehouseJSON
import StoreCore

/// A number's issued codes in `OtpCodes`: found live, texted again, issued fresh, their tries
/// counted and, once right, consumed. Gatehouse's own codes live under the number and the PKCE
/// challenge they were asked with (`slot`), so a request with another challenge (a stranger's)
/// gets a code of its own and never touches the owner's; a provider's, under the number alone.
extension PhoneCodes {
    /// A code issued to a number: its issue id, its PKCE challenge if the request sent one, and
    /// when it was issued (seconds since 1970).
    struct Issued: Sendable, Equatable {
        let issue: String
        let challenge: String?
        let issuedAt: Double
    }

    /// What a slot holds now: its live code, or the issue of a dead one still stored (its tries
    /// spent), or neither.
    struct SlotState: Sendable, Equatable {
        var live: Issued?
        var deadIssue: String?
    }

    /// Where a code asked for with `challenge` lives: under the number and the challenge for
    /// Gatehouse's own codes, under the number alone for a provider's (one code a number).
    func slot(_ phone: PhoneNumber, challenge: String?) -> ItemKey {
        guard provider == nil, let challenge else { return ItemKey(.string(phone.value)) }
        return ItemKey(.string("\(phone.value)#\(challenge)"))
    }

    /// What `key` holds now.
    func state(of key: ItemKey) async throws -> SlotState {
        guard let item = try await store.get(Self.table, key: key), let issue = item["issue"]?.stringValue,
            let expiresAt = item["expiresAt"]?.numberValue, clock.now * 1000 < expiresAt
        else { return SlotState() }
        guard (item["tries"]?.numberValue ?? 0) < Double(Self.triesPerCode) else { return SlotState(deadIssue: issue) }
        let issued = Issued(
            issue: issue, challenge: item["codeChallenge"]?.stringValue, issuedAt: item["issuedAt"]?.numberValue ?? 0)
        return SlotState(live: issued)
    }

    /// Gives the live code `live` 5 minutes more (never past `maximumLifetime` after its issue),
    /// to text it again: its issue, or nil when it was replaced or used meanwhile.
    func resend(_ live: Issued, at key: ItemKey) async throws -> String? {
        let expires = min(clock.now + Self.lifetime, live.issuedAt + Self.maximumLifetime)
        do {
            _ = try await store.update(
                Self.table, key: key,
                actions: [
                    .set("expiresAt", .number((expires * 1000).rounded(.down))),
                    .set("ttl", .number(expires.rounded(.up))),
                ],
                condition: .attributeEquals("issue", .string(live.issue)))
            return live.issue
        } catch StoreError.conditionFailed {
            return nil
        }
    }

    /// Issues a fresh code at `key` for `lifetime` seconds: its issue. Only where `state` found
    /// no live code (a conditional write: the dead code it found, or nothing), so a code issued
    /// meanwhile by a racing request is never replaced; nil then.
    func issueFresh(
        at key: ItemKey, found state: SlotState, challenge: String?, lifetime: Double
    ) async throws -> String? {
        let issue = RandomToken.urlSafe(byteCount: 16)
        let expires = clock.now + lifetime
        var item: Item = [
            "phone": key.partition, "issue": .string(issue), "tries": 0, "issuedAt": .number(clock.now),
            "expiresAt": .number((expires * 1000).rounded(.down)), "ttl": .number(expires.rounded(.up)),
        ]
        if let challenge { item["codeChallenge"] = .string(challenge) }
        do {
            try await store.put(
                Self.table, item: item,
                condition: state.deadIssue.map { .attributeEquals("issue", .string($0)) } ?? .itemNotExists)
            return issue
        } catch StoreError.conditionFailed {
            return nil
        }
    }

    /// Counts a try at the live code at `key`, before it is compared: the code, or `codeRefused`
    /// when there is none, or it has had its tries (this try took the count past them).
    func countTry(at key: ItemKey) async throws -> Issued {
        guard let issued = try await state(of: key).live,
            try await CodeTries.count(
                at: key, in: Self.table, identity: ("issue", .string(issued.issue)), limit: Self.triesPerCode,
                store: store)
        else { throw SignInError.codeRefused }
        return issued
    }

    /// Consumes the right code `issued` at `key` (once: a conditional delete), then checks
    /// `codeVerifier` against its challenge, if it had one; `codeRefused` when it was used
    /// meanwhile or the verifier does not meet the challenge.
    func consume(_ issued: Issued, at key: ItemKey, codeVerifier: String?) async throws {
        do {
            _ = try await store.delete(
                Self.table, key: key, condition: .attributeEquals("issue", .string(issued.issue)))
        } catch StoreError.conditionFailed {
            throw SignInError.codeRefused
        }
        if let challenge = issued.challenge, !PKCE.verifies(codeVerifier ?? "", challenge: challenge) {
            throw SignInError.codeRefused
        }
    }
}
