import GatehouseJSON
import StoreCore

/// A person who signed in, as kept in the `Users` table.
public struct User: Sendable, Equatable {
    /// Random and URL-safe; never reused.
    public let id: String
    /// Normalised (see `EmailAddress`), when the user has one.
    public var email: String?
    /// E.164, when the user has one.
    public var phone: String?
    public var name: String?
    /// The subject id at each sign-in provider the user has used (`email`, `apple`, ...).
    public var providers: [String: String]
    /// Milliseconds since 1970.
    public let createdAt: Double
    public var updatedAt: Double

    public init(
        id: String, email: String? = nil, phone: String? = nil, name: String? = nil, providers: [String: String] = [:],
        createdAt: Double, updatedAt: Double
    ) {
        self.id = id
        self.email = email
        self.phone = phone
        self.name = name
        self.providers = providers
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    /// The stored item.
    public var item: Item {
        var item: Item = [
            "id": .string(id), "providers": .object(providers.mapValues { .string($0) }),
            "createdAt": .number(createdAt), "updatedAt": .number(updatedAt),
        ]
        if let email { item["email"] = .string(email) }
        if let phone { item["phone"] = .string(phone) }
        if let name { item["name"] = .string(name) }
        return item
    }

    /// Reads a stored item; nil when it is not a user's.
    public init?(item: Item) {
        guard case .string(let id)? = item["id"], case .number(let createdAt)? = item["createdAt"],
            case .number(let updatedAt)? = item["updatedAt"]
        else { return nil }
        self.id = id
        email = item["email"]?.stringValue
        phone = item["phone"]?.stringValue
        name = item["name"]?.stringValue
        providers = (item["providers"]?.objectValue ?? [:]).compactMapValues(\.stringValue)
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}

extension User {
    /// The user as the API shows it (times in milliseconds since 1970; absent values null).
    public var json: JSONValue {
        [
            "id": .string(id), "email": email.map(JSONValue.string) ?? .null,
            "phone": phone.map(JSONValue.string) ?? .null, "name": name.map(JSONValue.string) ?? .null,
            "providers": .object(providers.mapValues { .string($0) }), "createdAt": .number(createdAt),
            "updatedAt": .number(updatedAt),
        ]
    }
}
