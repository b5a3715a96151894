import GatehouseJSON
import StoreCore

/// An address change that needs the consent of both addresses (Supabase's secure email change).
///
/// - `request` is counted per user and per source IP before anything is looked up, and its
///   lookup and emails happen after the answer (the work it returns). The current address gets
///   the same link whether the new address is free or taken; a free one gets a link too, a
///   taken one's owner a notice and no link, so that change never completes. Either way the
///   answer is the unchanged user.
/// - The change is one item per user (`change:{userId}` in `EmailTokens`), an hour long: a new
///   request replaces it, so earlier links stop working. Each link, used (a POST, never a GET),
///   confirms its address's side; the user moves only when both sides have confirmed, and the
///   old address is told. Using a link never signs anyone in.
public struct EmailChanges: Sendable {
    public static let perUser = RateLimit(name: "email-change:user", limit: 5, window: 3600)
    public static let perSourceIP = RateLimit.perSource(name: "email-change:ip", limit: 30, window: 300)

    /// Where a used link leaves the change.
    public enum Progress: Sendable, Equatable {
        /// This address confirmed; the other one has still to.
        case waitingForOtherAddress
        /// Both confirmed: the user has the new address.
        case changed(User)
    }

    let users: UserDirectory
    let links: EmailTokens
    let store: any KeyValueStore
    let clock: any StoreClock

    public init(users: UserDirectory, links: EmailTokens, store: any KeyValueStore, clock: any StoreClock) {
        self.users = users
        self.links = links
        self.store = store
        self.clock = clock
    }

    /// Asks to move `user` to `email` (see the type's rules): counts the request, and returns
    /// the work that looks the address up and mails, for the caller to run after its answer.
    public func request(
        to email: EmailAddress, for user: User, app: App, redirectTo: String, sourceIP: String?
    ) async throws -> @Sendable () async throws -> Void {
        try await count(userID: user.id, sourceIP: sourceIP)
        guard email.value != user.email else { return {} }
        try await links.countSend(to: email, from: sourceIP)
        return { [self] in try await mail(to: email, for: user, app: app, redirectTo: redirectTo) }
    }

    /// Records the change and mails the current address its link, whether or not the new
    /// address is taken (so that its owner learns nothing from their own inbox either); then the
    /// new address its link, or, when it has an account, that account's owner a notice instead,
    /// and that change can never complete.
    private func mail(to email: EmailAddress, for user: User, app: App, redirectTo: String) async throws {
        let changeID = RandomToken.urlSafe(byteCount: 16)
        try await record(changeID, for: user, to: email)
        try await mailCurrent(changeID, of: user, to: email, app: app, redirectTo: redirectTo)
        try await mailNew(changeID, of: user, to: email, app: app, redirectTo: redirectTo)
    }

    /// Supabase's `/resend` `email_change`: mails each side of `user`'s change that has not
    /// confirmed yet a new link for the same change (its earlier links keep working until the
    /// change expires, which this does not extend); nothing when there is no live change. The
    /// new address is counted as any email to it is (`EmailTokens.perAddress`), and past its
    /// limit is not mailed again.
    public func resend(for user: User, app: App, redirectTo: String, sourceIP: String?) async throws {
        guard let item = try await store.get(EmailTokens.table, key: Self.key(user.id)),
            let changeID = item["changeId"]?.stringValue, let target = item["newEmail"]?.stringValue,
            let email = EmailAddress(target), let ttl = item["ttl"]?.numberValue, clock.now < ttl
        else { return }
        if item["current"] == "pending" {
            try await mailCurrent(changeID, of: user, to: email, app: app, redirectTo: redirectTo)
        }
        guard item["new"] == "pending" else { return }
        do {
            try await links.countSend(to: email, from: sourceIP)
        } catch SignInError.rateLimited {
            return
        }
        try await mailNew(changeID, of: user, to: email, app: app, redirectTo: redirectTo)
    }

    /// The current address's link for the change `changeID` to `email`, when the user has one.
    private func mailCurrent(
        _ changeID: String, of user: User, to email: EmailAddress, app: App, redirectTo: String
    ) async throws {
        guard let current = user.email else { return }
        try await links.send(
            .emailChange, userID: user.id, email: current, app: app, redirectTo: redirectTo, changeID: changeID,
            wording: (
                "Confirm the change of your \(app.name) address",
                "Someone asked to change the address of your \(app.name) account from \(current) to "
                    + "\(email.value). Nothing changes unless both addresses confirm. If it was you, confirm here:"
            ))
    }

    /// The new address's link for the change `changeID`, or, when it has an account, that
    /// account's owner a notice instead (and that change can never complete).
    private func mailNew(
        _ changeID: String, of user: User, to email: EmailAddress, app: App, redirectTo: String
    ) async throws {
        if try await users.user(email: email) != nil {
            try await links.notify(
                email.value, subject: "Someone asked to use this address at \(app.name)",
                text: "Someone asked to move another \(app.name) account to this address, which already has "
                    + "an account. Nothing has changed. If it was you, sign in with this address instead.",
                app: app)
            return
        }
        let account = user.email.map { "your \(app.name) account, now \($0)" } ?? "your \(app.name) account"
        try await links.send(
            .emailChange, userID: user.id, email: email.value, app: app, redirectTo: redirectTo, changeID: changeID,
            wording: (
                "Confirm your new email for \(app.name)",
                "Confirm \(email.value) as the new address of \(account). If you did not ask for it, "
                    + "do not confirm:"
            ))
    }

    /// Confirms the side of the change `record`'s link was sent to; `AccountError.linkExpired`
    /// when the change is gone or was replaced.
    public func confirm(_ record: EmailTokens.Record, app: App?) async throws -> Progress {
        let key = Self.key(record.userID)
        guard let changeID = record.changeID, let item = try await store.get(EmailTokens.table, key: key),
            item["changeId"]?.stringValue == changeID, let target = item["newEmail"]?.stringValue,
            let email = EmailAddress(target)
        else { throw AccountError.linkExpired }
        let updated: Item
        do {
            updated = try await store.update(
                EmailTokens.table, key: key, actions: [.set(record.email == target ? "new" : "current", "confirmed")],
                condition: .attributeEquals("changeId", .string(changeID)))
        } catch StoreError.conditionFailed {
            throw AccountError.linkExpired
        }
        guard updated["new"] == "confirmed", updated["current"] == "confirmed" else { return .waitingForOtherAddress }
        guard let user = try await users.user(id: record.userID) else { throw AccountError.linkExpired }
        let done: WriteOperation = .delete(
            table: EmailTokens.table, key: key, condition: .attributeEquals("changeId", .string(changeID)))
        let changed = try await users.changeEmail(of: user, to: email, alsoWriting: [done])
        if let old = user.email, let app {
            try await links.notify(
                old, subject: "Your \(app.name) address was changed",
                text: "The address of your \(app.name) account is now \(email.value), as both addresses confirmed. "
                    + "If this was not you, contact \(app.name) at once.",
                app: app)
        }
        return .changed(changed)
    }

    private func count(userID: String, sourceIP: String?) async throws {
        let limiter = RateLimiter(store: store, clock: clock)
        if case .limited(let seconds) = try await limiter.hit(Self.perUser, subject: userID) {
            throw SignInError.rateLimited(retryAfter: seconds)
        }
        if let sourceIP, case .limited(let seconds) = try await limiter.hit(Self.perSourceIP, subject: sourceIP) {
            throw SignInError.rateLimited(retryAfter: seconds)
        }
    }

    private func record(_ changeID: String, for user: User, to email: EmailAddress) async throws {
        let expires = clock.now + EmailTokens.lifetime
        try await store.put(
            EmailTokens.table,
            item: [
                "tokenHash": Self.key(user.id).partition, "changeId": .string(changeID),
                "newEmail": .string(email.value), "new": "pending",
                "current": user.email == nil ? "confirmed" : "pending", "ttl": .number(expires.rounded(.up)),
            ], condition: nil)
    }

    private static func key(_ userID: String) -> ItemKey { ItemKey(.string("change:\(userID)")) }
}
