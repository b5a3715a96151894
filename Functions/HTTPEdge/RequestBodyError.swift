/// Why a request body was refused (400).
public enum RequestBodyError: Error, Sendable, Equatable, CustomStringConvertible {
    case missing
    case tooLarge(limit: Int)
    case notJSON
    case notAnObject
    /// A field is missing or has the wrong type or size: its name and what is wrong.
    case field(String, String)

    public var description: String {
        switch self {
        case .missing: "The request has no body; a JSON object is expected."
        case .tooLarge(let limit): "The body is larger than \(limit) bytes."
        case .notJSON: "The body is not valid JSON."
        case .notAnObject: "The body must be a JSON object."
        case .field(let name, let problem): "\(name) \(problem)."
        }
    }
}
