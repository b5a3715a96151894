/// Why an admin operation on users was refused.
public enum UserAdminError: Error, Sendable, Equatable, CustomStringConvertible {
    case userNotFound
    case factorNotFound
    case passkeyNotFound
    /// Another user has the address.
    case emailExists
    /// Another user has the number.
    case phoneExists
    /// A field is missing or wrong, named in the message.
    case invalid(String)
    /// Something Gatehouse's admin operations do not do, named.
    case unsupported(String)

    public var description: String {
        switch self {
        case .userNotFound: "The user does not exist."
        case .factorNotFound: "The user has no such factor."
        case .passkeyNotFound: "The user has no such passkey."
        case .emailExists: "Another user has this email address."
        case .phoneExists: "Another user has this phone number."
        case .invalid(let why): why
        case .unsupported(let what): "Not supported: \(what)."
        }
    }
}
