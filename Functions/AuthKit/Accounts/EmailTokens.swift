import GatehouseJSON
import StoreCore

/// The one-time links of password accounts: confirming a sign-up, recovering an account,
/// confirming a new address. Like magic links, each token is a `LinkToken`, stored only as its
/// SHA-256, with what it is for; it works once, within an hour
/// (Supabase's default), and is then remembered a day so that a late click can be told so.
///
/// With an `OTPSecret`, each email also carries a six-digit code that stands for its link
/// (Supabase's `{email, token}` form of `/verify`), the last one sent per address and kind,
/// kept and limited as `EmailCodes` says.
public struct EmailTokens: Sendable {
    /// What a link does.
    public enum Kind: String, Sendable, Equatable {
        case signup
        case recovery
        case emailChange = "email_change"
    }

    /// A link's record.
    public struct Record: Sendable, Equatable {
        public let kind: Kind
        public let userID: String
        /// The address the link was sent to (for an address change, the new one).
        public let email: String
        public let app: String
        /// Where the browser goes after a click (already checked against the app).
        public let redirectTo: String
        /// For an address change: the change the link confirms one side of
        /// (`PasswordAccounts.EmailChange`).
        public var changeID: String? = nil
        /// The S256 PKCE challenge of the client that asked for the link, when it sent one: the
        /// link's button then returns with an auth code only that client redeems
        /// (`PasswordAccounts.follow`), never with tokens.
        public var codeChallenge: String? = nil
    }

    public static let table = "EmailTokens"
    public static let lifetime: Double = 3600
    static let memory: Double = 86400
    /// Account emails to one address: 5 an hour per address and source, and 5 fresh ones an
    /// hour per address (`AddressAllowance`), counted whether or not one is sent.
    public static let perAddress = AddressAllowance(name: "account-email", limit: 5)

    let store: any KeyValueStore
    let clock: any StoreClock
    private let sender: any MessageSender
    /// The API's public base URL (`ISSUER`): links point at `{issuer}/auth/v1/verify`.
    private let issuer: String
    /// The six-digit codes mailed with the links; nil (no OTP secret): the emails carry links only.
    let codes: EmailCodes?

    public init(
        store: any KeyValueStore, clock: any StoreClock, sender: any MessageSender, issuer: String,
        secret: OTPSecret? = nil
    ) {
        self.store = store
        self.clock = clock
        self.sender = sender
        self.issuer = issuer
        self.codes = secret.map { EmailCodes(store: store, clock: clock, secret: $0) }
    }

    /// The links a function mails: `ISSUER` (`SessionSettings`), the email sender
    /// `EMAIL_DELIVERY` names (SES through `remote`), and codes when the OTP secret is set
    /// (`OTPSecret.optional`).
    public init(
        environment: [String: String], store: any KeyValueStore, clock: any StoreClock,
        remote: (any RemoteSenders)? = nil
    ) throws {
        self.init(
            store: store, clock: clock,
            sender: try DeliverySettings(environment: environment).sender(
                .email, store: store, clock: clock, remote: remote),
            issuer: try SessionSettings(environment: environment).issuer,
            secret: try OTPSecret.optional(environment: environment))
    }

    /// Counts an email to `email` asked for from `sourceIP` against `perAddress`:
    /// `SignInError.rateLimited` over it.
    public func countSend(to email: EmailAddress, from sourceIP: String?) async throws {
        try await Self.perAddress.count(
            email.value, sourceIP: sourceIP, lifetime: Self.lifetime, store: store, clock: clock)
    }

    /// Records a link of `kind` for `userID` (and its code, with a secret) and mails it to `email`.
    /// `changeID` ties an address change's links to it; `codeChallenge` (S256) makes it a PKCE
    /// flow's; `wording` replaces the kind's subject and opening line.
    public func send(
        _ kind: Kind, userID: String, email: String, app: App, redirectTo: String, changeID: String? = nil,
        codeChallenge: String? = nil, wording: (subject: String, lead: String)? = nil
    ) async throws {
        let wording = wording ?? Self.wording(kind, app: app.name)
        let made = try await record(
            kind, userID: userID, email: email, app: app, redirectTo: redirectTo, changeID: changeID,
            codeChallenge: codeChallenge)
        var text = "\(wording.lead)\n\n\(made.link)\n\n"
        if let code = made.code { text += "Or enter this code: \(code)\n\n" }
        try await sender.send(
            OutgoingMessage(
                channel: .email, recipient: email, subject: wording.subject,
                text: text + "It works once, for an hour. If you did not ask for it, ignore this email.",
                secret: made.link, app: app.id))
    }

    /// Records a link of `kind` for `userID` to `email` (and its code, with a secret), as `send`
    /// mails it: the link, its token and code, for the caller to deliver (the admin API's
    /// `generate_link` answers them).
    public func record(
        _ kind: Kind, userID: String, email: String, app: App, redirectTo: String, changeID: String? = nil,
        codeChallenge: String? = nil
    ) async throws -> EmailedLink {
        let (token, tokenHash) = LinkToken.make()
        let expires = clock.now + Self.lifetime
        let times: Item = [
            "expiresAt": .number((expires * 1000).rounded(.down)), "ttl": .number((expires + Self.memory).rounded(.up)),
        ]
        var item = times.merging([
            "tokenHash": .string(tokenHash), "kind": .string(kind.rawValue), "userId": .string(userID),
            "email": .string(email), "app": .string(app.id), "redirectTo": .string(redirectTo), "state": "pending",
        ]) { $1 }
        if let changeID { item["changeId"] = .string(changeID) }
        if let codeChallenge { item["codeChallenge"] = .string(codeChallenge) }
        try await store.put(Self.table, item: item, condition: .itemNotExists)
        let link =
            "\(issuer)/auth/v1/verify?"
            + FormEncoding.encode([("token", token), ("type", kind.rawValue), ("redirect_to", redirectTo)])
        let code = try await codes?.issue(Self.codeSlot(kind), email: email, link: tokenHash, expires: expires)
        return EmailedLink(link: link, token: token, code: code, type: kind.rawValue, redirectTo: redirectTo)
    }

    /// Mails `email` a message that carries no link: a notice (an address change done, or asked
    /// for an address that already has an account), or a code (`secret`, for the outbox).
    public func notify(_ email: String, subject: String, text: String, app: App, secret: String = "") async throws {
        try await sender.send(
            OutgoingMessage(
                channel: .email, recipient: email, subject: subject, text: text, secret: secret, app: app.id))
    }

    /// Where the code of a link of `kind` is kept.
    static func codeSlot(_ kind: Kind) -> EmailCodes.Slot { EmailCodes.Slot(table: table, purpose: kind.rawValue) }

    /// Where the codes of links of `kinds` are kept, in one order.
    static func codeSlots(_ kinds: Set<Kind>) -> [EmailCodes.Slot] {
        kinds.sorted { $0.rawValue < $1.rawValue }.map(codeSlot)
    }

    private static func wording(_ kind: Kind, app: String) -> (subject: String, lead: String) {
        switch kind {
        case .signup: ("Confirm your email for \(app)", "Confirm your email address for \(app):")
        case .recovery: ("Reset your password for \(app)", "Sign in to \(app) and choose a new password:")
        case .emailChange: ("Confirm your new email for \(app)", "Confirm this new email address for \(app):")
        }
    }

    /// The record of `token` without using it; nil when there is none (or it is malformed).
    public func peek(_ token: String) async throws -> Record? {
        guard let key = LinkToken.key(token), let item = try await store.get(Self.table, key: key) else { return nil }
        return Self.record(item)
    }

    /// The record of `token` while its link can still be used (pending, unexpired), without
    /// using it; nil otherwise.
    public func peekLive(_ token: String) async throws -> Record? {
        guard let key = LinkToken.key(token), let item = try await store.get(Self.table, key: key),
            item["state"] == "pending", let expiresAt = item["expiresAt"]?.numberValue, clock.now * 1000 < expiresAt
        else { return nil }
        return Self.record(item)
    }

    /// Uses the link of `token`, once, if it is of one of `kinds`, pending and not expired; else
    /// `AccountError.linkExpired`, whatever the reason. A link of another kind is not used up.
    /// However many uses race, one wins (a conditional write from pending to used).
    public func consume(_ token: String, kinds: Set<Kind>) async throws -> Record {
        guard let key = LinkToken.key(token) else { throw AccountError.linkExpired }
        return try await consume(key: key, kinds: kinds)
    }

    func consume(key: ItemKey, kinds: Set<Kind>) async throws -> Record {
        // The kind never changes: a link of another kind is refused before it could be used up.
        guard let found = try await store.get(Self.table, key: key).flatMap(Self.record), kinds.contains(found.kind)
        else { throw AccountError.linkExpired }
        let item: Item
        do {
            item = try await store.update(
                Self.table, key: key, actions: [.set("state", "used")],
                condition: .attributeEquals("state", "pending"))
        } catch StoreError.conditionFailed {
            throw AccountError.linkExpired
        }
        guard let record = Self.record(item), let expiresAt = item["expiresAt"]?.numberValue,
            clock.now * 1000 < expiresAt
        else { throw AccountError.linkExpired }
        return record
    }

    private static func record(_ item: Item) -> Record? {
        guard let kind = item["kind"]?.stringValue.flatMap(Kind.init(rawValue:)),
            let userID = item["userId"]?.stringValue, let email = item["email"]?.stringValue,
            let app = item["app"]?.stringValue, let redirectTo = item["redirectTo"]?.stringValue
        else { return nil }
        return Record(
            kind: kind, userID: userID, email: email, app: app, redirectTo: redirectTo,
            changeID: item["changeId"]?.stringValue, codeChallenge: item["codeChallenge"]?.stringValue)
    }
}
