import GatehouseJSON

/// The JSON object body of an API request, with the checks every JSON endpoint makes: present,
/// not over the limit, JSON, an object; and fields read with their type checked, so a bad
/// request gets a 400 that names the field.
public struct JSONRequestBody: Sendable {
    /// The body's members.
    public let object: [String: JSONValue]

    /// Reads `request`'s body (base64 undone when API Gateway encoded it). With
    /// `requiringJSONContentType`, a `Content-Type` other than `application/json` (parameters
    /// allowed) is refused, naming the header: a form post from another site cannot reach it.
    public init(
        _ request: HTTPRequest, maximumBytes: Int = 16 * 1024, requiringJSONContentType: Bool = false
    ) throws(RequestBodyError) {
        if requiringJSONContentType {
            let type = request.header("content-type")?.split(separator: ";").first.map {
                $0.filter { $0 != " " && $0 != "\t" }.lowercased()
            }
            guard type == "application/json" else {
                throw .field("content-type", "must be application/json")
            }
        }
        try self.init(bytes: request.bodyBytes(), maximumBytes: maximumBytes)
    }

    /// Reads a body already taken from its request (`HTTPRequest.bodyBytes()`), for a handler
    /// that needs the bytes themselves too, as a signature check does.
    public init(bytes: [UInt8], maximumBytes: Int = 16 * 1024) throws(RequestBodyError) {
        guard !bytes.isEmpty else { throw .missing }
        guard bytes.count <= maximumBytes else { throw .tooLarge(limit: maximumBytes) }
        guard let value = try? JSONValue(parsing: bytes, rejectingDuplicateKeys: true) else { throw .notJSON }
        guard case .object(let object) = value else { throw .notAnObject }
        self.object = object
    }

    /// A required, non-empty string of at most `maximumLength` UTF-8 bytes.
    public func string(_ field: String, maximumLength: Int = 1024) throws(RequestBodyError) -> String {
        guard let value = try optionalString(field, maximumLength: maximumLength) else {
            throw .field(field, "is required")
        }
        return value
    }

    /// An optional string field: nil when absent or null; otherwise as `string(_:)` checks it.
    public func optionalString(_ field: String, maximumLength: Int = 1024) throws(RequestBodyError) -> String? {
        switch object[field] {
        case nil, .null?: return nil
        case .string(let value)?:
            guard !value.isEmpty else { throw .field(field, "must not be empty") }
            guard value.utf8.count <= maximumLength else {
                throw .field(field, "must be at most \(maximumLength) bytes")
            }
            return value
        default: throw .field(field, "must be a string")
        }
    }

    /// An optional boolean field: `absent` when absent or null.
    public func flag(_ field: String, absent: Bool = false) throws(RequestBodyError) -> Bool {
        switch object[field] {
        case nil, .null?: return absent
        case .bool(let value)?: return value
        default: throw .field(field, "must be true or false")
        }
    }
}
