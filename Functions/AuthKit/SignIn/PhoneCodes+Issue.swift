import GatehouseJSON
import StoreCore

/// A number's issued codes in `OtpCodes`: found live, texted again, issued fresh, their tries
/// counted and, once right, consumed. Gatehouse's own codes live under the number and the PKCE
/// challenge they were asked with (`slot`), so a request with another challenge (a stranger's)
/// gets a code of its own and never touches the owner's; a provider's, under the number alone.
extension PhoneCodes {
    /// A code issued to a number: its issue id, its PKCE challenge if the request sent one, when
    /// it was issued (seconds since 1970), and the user it was texted for: a sign-up's, while it
    /// was texted for nothing else (`marking`), or the user whose number change it confirms
    /// (`PhoneCodes+Change.swift`).
    struct Issued: Sendable, Equatable {
        let issue: String
        let challenge: String?
        let issuedAt: Double
        var forUser: String? = nil
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
            issue: issue, challenge: item["codeChallenge"]?.stringValue, issuedAt: item["issuedAt"]?.numberValue ?? 0,
            forUser: item["forUser"]?.stringValue)
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
        at key: ItemKey, found state: SlotState, challenge: String?, lifetime: Double, forUser: String? = nil
    ) async throws -> String? {
        let issue = RandomToken.urlSafe(byteCount: 16)
        let expires = clock.now + lifetime
        var item: Item = [
            "phone": key.partition, "issue": .string(issue), "tries": 0, "issuedAt": .number(clock.now),
            "expiresAt": .number((expires * 1000).rounded(.down)), "ttl": .number(expires.rounded(.up)),
        ]
        if let challenge { item["codeChallenge"] = .string(challenge) }
        if let forUser { item["forUser"] = .string(forUser) }
        do {
            try await store.put(
                Self.table, item: item,
                condition: state.deadIssue.map { .attributeEquals("issue", .string($0)) } ?? .itemNotExists)
            return issue
        } catch StoreError.conditionFailed {
            return nil
        }
    }

    /// The live code `live` at `key` texted again for the sign-up `signUp`, or for a sign-in
    /// (nil): a sign-up's code texted for anything else is no longer only the sign-up's (its
    /// password is not kept by it: `SignUpPassword.keptByCode`), and a sign-in's code never
    /// becomes a sign-up's. Nothing when it was used or replaced meanwhile.
    func marking(_ live: Issued, at key: ItemKey, signUp: String?) async throws {
        guard let current = live.forUser, current != signUp else { return }
        do {
            _ = try await store.update(
                Self.table, key: key, actions: [signUp.map { .set("forUser", .string($0)) } ?? .remove("forUser")],
                condition: .attributeEquals("issue", .string(live.issue)))
        } catch StoreError.conditionFailed {
            // Used or replaced meanwhile: what is there now was issued for its own request.
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
