import GatehouseJSON
import StoreCore

/// A number's issued code in `OtpCodes`: found live, texted again, issued fresh, its tries
/// counted and, once right, consumed.
extension PhoneCodes {
    /// A code issued to a number: its issue id, and its PKCE challenge if the request sent one.
    struct Issued: Sendable, Equatable {
        let issue: String
        let challenge: String?
        /// When it was issued, in seconds since 1970.
        let issuedAt: Double
    }

    /// The number's code, when it can still be used (unexpired, under its tries), whatever
    /// challenge it was asked for with (it stays bound to the first).
    func liveIssue(of phone: PhoneNumber) async throws -> Issued? {
        guard let item = try await store.get(Self.table, key: ItemKey(.string(phone.value))) else { return nil }
        return Self.issued(item, now: clock.now)
    }

    /// The code in `item`, if it can still be used.
    private static func issued(_ item: Item, now: Double) -> Issued? {
        guard let issue = item["issue"]?.stringValue, let expiresAt = item["expiresAt"]?.numberValue,
            now * 1000 < expiresAt, (item["tries"]?.numberValue ?? 0) < Double(triesPerCode)
        else { return nil }
        return Issued(
            issue: issue, challenge: item["codeChallenge"]?.stringValue,
            issuedAt: item["issuedAt"]?.numberValue ?? 0)
    }

    /// Gives the live code `live` 5 minutes more (never past `maximumLifetime` after its issue),
    /// to text it again: its issue, or nil when there is none, it is too old to text again, or
    /// it was replaced meanwhile.
    func resend(_ live: Issued?, of phone: PhoneNumber) async throws -> String? {
        guard let live, clock.now + 60 < live.issuedAt + Self.maximumLifetime else { return nil }
        let expires = min(clock.now + Self.lifetime, live.issuedAt + Self.maximumLifetime)
        do {
            _ = try await store.update(
                Self.table, key: ItemKey(.string(phone.value)),
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

    /// Issues a fresh code to `phone` for `lifetime` seconds, replacing any other: its issue.
    func issueFresh(_ phone: PhoneNumber, challenge: String?, lifetime: Double) async throws -> String {
        let issue = RandomToken.urlSafe(byteCount: 16)
        let expires = clock.now + lifetime
        var item: Item = [
            "phone": .string(phone.value), "issue": .string(issue), "tries": 0, "issuedAt": .number(clock.now),
            "expiresAt": .number((expires * 1000).rounded(.down)), "ttl": .number(expires.rounded(.up)),
        ]
        if let challenge { item["codeChallenge"] = .string(challenge) }
        try await store.put(Self.table, item: item, condition: nil)
        return issue
    }

    /// Counts a try at the number's live code, before it is compared: the code, or `codeRefused`
    /// when there is none, or it has had its tries (this try took the count past them).
    func countTry(_ phone: PhoneNumber) async throws -> Issued {
        let key = ItemKey(.string(phone.value))
        guard let item = try await store.get(Self.table, key: key), let issued = Self.issued(item, now: clock.now)
        else { throw SignInError.codeRefused }
        let counted: Item
        do {
            counted = try await store.update(
                Self.table, key: key, actions: [.add("tries", 1)],
                condition: .attributeEquals("issue", .string(issued.issue)))
        } catch StoreError.conditionFailed {
            throw SignInError.codeRefused
        }
        guard let tries = counted["tries"]?.numberValue, tries <= Double(Self.triesPerCode) else {
            throw SignInError.codeRefused
        }
        return issued
    }

    /// Consumes the right code `issued` (once: a conditional delete), then checks `codeVerifier`
    /// against its challenge, if it had one; `codeRefused` when it was used meanwhile or the
    /// verifier does not meet the challenge.
    func consume(_ issued: Issued, of phone: PhoneNumber, codeVerifier: String?) async throws {
        do {
            _ = try await store.delete(
                Self.table, key: ItemKey(.string(phone.value)),
                condition: .attributeEquals("issue", .string(issued.issue)))
        } catch StoreError.conditionFailed {
            throw SignInError.codeRefused
        }
        if let challenge = issued.challenge, !PKCE.verifies(codeVerifier ?? "", challenge: challenge) {
            throw SignInError.codeRefused
        }
    }
}
