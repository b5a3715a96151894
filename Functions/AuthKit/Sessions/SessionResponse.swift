import GatehouseJSON

/// What Exchange and Refresh answer with (times in milliseconds since 1970; `expiresIn`, the
/// access token's lifetime, in seconds).
public struct SessionResponse: Sendable, Equatable, Encodable {
    public struct UserSummary: Sendable, Equatable, Encodable {
        public let id: String
        public let email: String?
        public let name: String?
        public let provider: String
        public let isNewUser: Bool
        /// The user's phone number (E.164), when it has one: the access token's `phone` claim.
        public let phone: String?
        /// Supabase's `app_metadata` (`User.appMetadataWithProviders`) and `user_metadata`: the
        /// access token's claims of those names. Not in Gatehouse's own JSON answer.
        public let appMetadata: [String: JSONValue]
        public let userMetadata: [String: JSONValue]
        /// Signed in anonymously (`User.isAnonymous`): the access token's `is_anonymous`.
        public var isAnonymous = false

        public init(
            id: String, email: String?, name: String?, provider: String, isNewUser: Bool, phone: String? = nil,
            appMetadata: [String: JSONValue] = [:], userMetadata: [String: JSONValue] = [:]
        ) {
            self.id = id
            self.email = email
            self.name = name
            self.provider = provider
            self.isNewUser = isNewUser
            self.phone = phone
            self.appMetadata = appMetadata
            self.userMetadata = userMetadata
        }

        /// `user`, signed in with `provider`.
        public init(_ user: User, provider: String, isNewUser: Bool = false) {
            self.init(
                id: user.id, email: user.email, name: user.name, provider: provider, isNewUser: isNewUser,
                phone: user.phone, appMetadata: user.appMetadataWithProviders, userMetadata: user.metadata)
            isAnonymous = user.isAnonymous
        }

        enum CodingKeys: String, CodingKey {
            case id, email, name, provider, isNewUser, phone
        }
    }

    public let accessToken: String
    public let accessTokenExpiresAt: Double
    public let refreshToken: String
    public let refreshTokenExpiresAt: Double
    public let user: UserSummary
    /// Seconds the access token lasts from now.
    public let expiresIn: Double

    /// The JSON the functions answer with; a missing email or name is null.
    public var json: JSONValue {
        [
            "accessToken": .string(accessToken), "accessTokenExpiresAt": .number(accessTokenExpiresAt),
            "refreshToken": .string(refreshToken), "refreshTokenExpiresAt": .number(refreshTokenExpiresAt),
            "expiresIn": .number(expiresIn),
            "user": [
                "id": .string(user.id), "email": user.email.map(JSONValue.string) ?? .null,
                "name": user.name.map(JSONValue.string) ?? .null, "provider": .string(user.provider),
                "isNewUser": .bool(user.isNewUser),
            ],
        ]
    }
}
