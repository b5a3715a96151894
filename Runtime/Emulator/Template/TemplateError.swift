/// Why template.json (or an `--env-vars` file) cannot be used; each names the file and the place in it.
public enum TemplateError: Error, Sendable, Equatable, CustomStringConvertible {
    case unreadable(path: String, reason: String)
    case notJSON(path: String, reason: String)
    case invalid(path: String, place: String, reason: String)
    case unknownFunction(name: String, available: [String])

    public var description: String {
        switch self {
        case .unreadable(let path, let reason): "cannot read \(path): \(reason)"
        case .notJSON(let path, let reason): "\(path) is not valid JSON: \(reason)"
        case .invalid(let path, let place, let reason): "\(path): \(place): \(reason)"
        case .unknownFunction(let name, let available):
            "no function named \(name) in the template; functions: \(available.isEmpty ? "(none)" : available.joined(separator: ", "))"
        }
    }
}
