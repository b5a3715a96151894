import GatehouseJSON

/// The fields of a user an admin creates or changes (Supabase's `AdminUserAttributes`): each
/// nil when not given.
public struct AdminUserFields: Sendable, Equatable {
    /// A ban's change: lifted, or made to last `seconds` from now.
    public enum Ban: Sendable, Equatable {
        case lift
        case forSeconds(Double)
    }

    public var email: String?
    public var phone: String?
    public var password: String?
    /// The address is shown to be the user's (Supabase's `email_confirm`).
    public var emailConfirm: Bool?
    /// The number is (`phone_confirm`).
    public var phoneConfirm: Bool?
    /// Replaces the user's `user_metadata` members it names (a null member removes one).
    public var userMetadata: [String: JSONValue]?
    /// Replaces the `app_metadata` members it names (a null member removes one); `provider` and
    /// `providers` are Gatehouse's to say and are ignored.
    public var appMetadata: [String: JSONValue]?
    public var ban: Ban?

    public init(
        email: String? = nil, phone: String? = nil, password: String? = nil, emailConfirm: Bool? = nil,
        phoneConfirm: Bool? = nil, userMetadata: [String: JSONValue]? = nil, appMetadata: [String: JSONValue]? = nil,
        ban: Ban? = nil
    ) {
        self.email = email
        self.phone = phone
        self.password = password
        self.emailConfirm = emailConfirm
        self.phoneConfirm = phoneConfirm
        self.userMetadata = userMetadata
        self.appMetadata = appMetadata
        self.ban = ban
    }

    /// `metadata` with `changes` merged in: a null member removes one.
    static func merged(_ metadata: [String: JSONValue], _ changes: [String: JSONValue]?) -> [String: JSONValue] {
        var merged = metadata
        for (name, value) in changes ?? [:] {
            if case .null = value { merged[name] = nil } else { merged[name] = value }
        }
        return merged
    }
}
