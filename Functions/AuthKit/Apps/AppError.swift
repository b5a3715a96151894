/// Why an app could not be registered or found.
public enum AppError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A field is wrong: its name (as `gatehouse apps add` spells the option) and why.
    case invalid(String, String)
    case exists(String)
    case notFound(String)

    public var description: String {
        switch self {
        case .invalid(let field, let why): "\(field): \(why)"
        case .exists(let id): "an app with id \(id) already exists"
        case .notFound(let id): "no app with id \(id)"
        }
    }
}
