import GatehouseJSON
import StoreCore

/// The one-time links of password accounts: confirming a sign-up, recovering an account,
/// confirming a new address. Like magic links, each token is 48 random bytes (64 URL-safe
/// characters) stored only as its SHA-256, with what it is for; it works once, within an hour
/// (Supabase's default), and is then remembered a day so that a late click can be told so.
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
    }

    public static let table = "EmailTokens"
    public static let lifetime: Double = 3600
    static let memory: Double = 86400
    /// Account emails to one address: 5 an hour, counted whether or not one is sent.
    public static let perAddress = RateLimit(name: "account-email:email", limit: 5, window: 3600)

    let store: any KeyValueStore
    let clock: any StoreClock
    private let sender: any MessageSender
    /// The API's public base URL (`ISSUER`): links point at `{issuer}/auth/v1/verify`.
    private let issuer: String

    public init(store: any KeyValueStore, clock: any StoreClock, sender: any MessageSender, issuer: String) {
        self.store = store
        self.clock = clock
        self.sender = sender
        self.issuer = issuer
    }

    /// Counts an email to `email` against `perAddress`: `SignInError.rateLimited` over it.
    public func countSend(to email: EmailAddress) async throws {
        let limiter = RateLimiter(store: store, clock: clock)
        if case .limited(let seconds) = try await limiter.hit(Self.perAddress, subject: email.value) {
            throw SignInError.rateLimited(retryAfter: seconds)
        }
    }

    /// Records a link of `kind` for `userID` and mails it to `email`.
    public func send(_ kind: Kind, userID: String, email: String, app: App, redirectTo: String) async throws {
        let token = RandomToken.urlSafe(byteCount: 48)
        let expires = clock.now + Self.lifetime
        try await store.put(
            Self.table,
            item: [
                "tokenHash": .string(SHA256Hex.of(Array(token.utf8))), "kind": .string(kind.rawValue),
                "userId": .string(userID), "email": .string(email), "app": .string(app.id),
                "redirectTo": .string(redirectTo), "state": "pending",
                "expiresAt": .number((expires * 1000).rounded(.down)),
                "ttl": .number((expires + Self.memory).rounded(.up)),
            ], condition: .itemNotExists)
        let link =
            "\(issuer)/auth/v1/verify?"
            + FormEncoding.encode([("token", token), ("type", kind.rawValue), ("redirect_to", redirectTo)])
        let (subject, lead) = Self.wording(kind, app: app.name)
        try await sender.send(
            OutgoingMessage(
                channel: .email, recipient: email, subject: subject,
                text:
                    "\(lead)\n\n\(link)\n\nThe link works once, for an hour. If you did not ask for it, ignore this email.",
                secret: link, app: app.id))
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
        guard let key = Self.key(token), let item = try await store.get(Self.table, key: key) else { return nil }
        return Self.record(item)
    }

    /// Uses the link of `token`, once, if it is of one of `kinds`, pending and not expired; else
    /// `AccountError.linkExpired`, whatever the reason. A link of another kind is not used up.
    /// However many uses race, one wins (a conditional write from pending to used).
    public func consume(_ token: String, kinds: Set<Kind>) async throws -> Record {
        // The kind never changes: a link of another kind is refused before it could be used up.
        guard let key = Self.key(token), let found = try await peek(token), kinds.contains(found.kind) else {
            throw AccountError.linkExpired
        }
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
        else {
            throw AccountError.linkExpired
        }
        return record
    }

    private static func key(_ token: String) -> ItemKey? {
        guard token.utf8.count == 64, token.utf8.allSatisfy(MagicLinks.isURLSafe) else { return nil }
        return ItemKey(.string(SHA256Hex.of(Array(token.utf8))))
    }

    private static func record(_ item: Item) -> Record? {
        guard let kind = item["kind"]?.stringValue.flatMap(Kind.init(rawValue:)),
            let userID = item["userId"]?.stringValue, let email = item["email"]?.stringValue,
            let app = item["app"]?.stringValue, let redirectTo = item["redirectTo"]?.stringValue
        else { return nil }
        return Record(kind: kind, userID: userID, email: email, app: app, redirectTo: redirectTo)
    }
}
