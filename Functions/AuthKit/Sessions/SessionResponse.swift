import GatehouseJSON

/// What Exchange and Refresh answer with (times in milliseconds since 1970).
public struct SessionResponse: Sendable, Equatable, Encodable {
    public struct UserSummary: Sendable, Equatable, Encodable {
        public let id: String
        public let email: String?
        public let name: String?
        public let provider: String
        public let isNewUser: Bool

        public init(id: String, email: String?, name: String?, provider: String, isNewUser: Bool) {
            self.id = id
            self.email = email
            self.name = name
            self.provider = provider
            self.isNewUser = isNewUser
        }
    }

    public let accessToken: String
    public let accessTokenExpiresAt: Double
    public let refreshToken: String
    public let refreshTokenExpiresAt: Double
    public let user: UserSummary

    /// The JSON the functions answer with; a missing email or name is null.
    public var json: JSONValue {
        [
            "accessToken": .string(accessToken), "accessTokenExpiresAt": .number(accessTokenExpiresAt),
            "refreshToken": .string(refreshToken), "refreshTokenExpiresAt": .number(refreshTokenExpiresAt),
            "user": [
                "id": .string(user.id), "email": user.email.map(JSONValue.string) ?? .null,
                "name": user.name.map(JSONValue.string) ?? .null, "provider": .string(user.provider),
                "isNewUser": .bool(user.isNewUser),
            ],
        ]
    }
}
