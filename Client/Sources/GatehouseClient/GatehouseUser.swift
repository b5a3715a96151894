/// The signed-in user, as the sign-in and `/auth/refresh` answers describe them.
public struct GatehouseUser: Codable, Sendable, Equatable {
    public var id: String
    public var email: String?
    public var name: String?
    /// How they signed in: `email`, `phone`, `apple`, `google`, …
    public var provider: String
    /// Whether the sign-in made the account.
    public var isNewUser: Bool
    /// The E.164 number of a phone sign-in.
    public var phoneNumber: String?

    public init(
        id: String, email: String?, name: String?, provider: String, isNewUser: Bool, phoneNumber: String? = nil
    ) {
        self.id = id
        self.email = email
        self.name = name
        self.provider = provider
        self.isNewUser = isNewUser
        self.phoneNumber = phoneNumber
    }
}
