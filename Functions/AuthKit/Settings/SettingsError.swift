/// A setting a function cannot start with: reported through `/runtime/init/error`, so the cold
/// start fails instead of every request.
public enum SettingsError: Error, Sendable, Equatable, CustomStringConvertible {
    case missing(String)
    case invalid(String, String)

    public var description: String {
        switch self {
        case .missing(let name): "\(name) is not set"
        case .invalid(let name, let why): "\(name) is invalid: \(why)"
        }
    }
}
