/// What identifies a person at sign-in, kept unique by an index item in `UserIndex`.
public enum SignInIdentity: Sendable, Hashable {
    /// An email address (magic links; also how provider accounts are linked).
    case email(EmailAddress)
    /// A phone number (OTP).
    case phone(PhoneNumber)
    /// A subject id at an external provider (`apple`, `google`, a Cognito pool, ...).
    case provider(String, subject: String)

    /// The `UserIndex` key: `email#…`, `phone#…` or `provider#{name}#{subject}`.
    public var indexKey: String {
        switch self {
        case .email(let address): "email#\(address.value)"
        case .phone(let number): "phone#\(number.value)"
        case .provider(let name, let subject): "provider#\(name)#\(subject)"
        }
    }

    /// The provider it records in the user's `providers`, and the subject there.
    public var providerEntry: (name: String, subject: String) {
        switch self {
        case .email(let address): ("email", address.value)
        case .phone(let number): ("phone", number.value)
        case .provider(let name, let subject): (name, subject)
        }
    }

    /// The identities a user's record is indexed under: email, phone, and every provider
    /// subject except the email and phone entries (those are the email and phone themselves).
    /// An entry `apple#2` is a second subject at `apple` (see `entryName(in:)`).
    static func all(of user: User) -> [SignInIdentity] {
        var identities: [SignInIdentity] = []
        if let email = user.email.flatMap(EmailAddress.init) { identities.append(.email(email)) }
        if let phone = user.phone.flatMap(PhoneNumber.init) { identities.append(.phone(phone)) }
        for (name, subject) in user.providers.sorted(by: { $0.key < $1.key }) where name != "email" && name != "phone" {
            identities.append(.provider(base(of: name), subject: subject))
        }
        return identities
    }

    /// The name under which `providers` records this identity: its provider's name, unless that
    /// entry holds another subject (Apple's own subject and the Cognito pool's for one person),
    /// then the first free `name#2`, `name#3`, …, so that a second subject never replaces the
    /// first. The name it already has, when `providers` records it.
    public func entryName(in providers: [String: String]) -> String {
        let (name, subject) = providerEntry
        if let existing = providers.first(where: { $0.value == subject && Self.base(of: $0.key) == name }) {
            return existing.key
        }
        var candidate = name
        var number = 1
        while providers[candidate] != nil {
            number += 1
            candidate = "\(name)#\(number)"
        }
        return candidate
    }

    /// The provider an entry name records: `apple` for `apple` and `apple#2`.
    static func base(of entryName: String) -> String {
        entryName.split(separator: "#", maxSplits: 1).first.map(String.init) ?? entryName
    }
}
