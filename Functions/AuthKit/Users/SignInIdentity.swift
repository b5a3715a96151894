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
    var providerEntry: (name: String, subject: String) {
        switch self {
        case .email(let address): ("email", address.value)
        case .phone(let number): ("phone", number.value)
        case .provider(let name, let subject): (name, subject)
        }
    }

    /// The identities a user's record is indexed under: email, phone, and every provider
    /// subject except the email and phone entries (those are the email and phone themselves).
    static func all(of user: User) -> [SignInIdentity] {
        var identities: [SignInIdentity] = []
        if let email = user.email.flatMap(EmailAddress.init) { identities.append(.email(email)) }
        if let phone = user.phone.flatMap(PhoneNumber.init) { identities.append(.phone(phone)) }
        for (name, subject) in user.providers.sorted(by: { $0.key < $1.key }) where name != "email" && name != "phone" {
            identities.append(.provider(name, subject: subject))
        }
        return identities
    }
}
