import GatehouseJSON

/// An event type read straight from a parsed `JSONValue`, without a `Decoder`: API Gateway's
/// payload 2.0 request, which HTTP functions decode on every invocation. Through
/// `JSONValueDecoder` its `Decodable` conformance was about a fifth of a warm `GET /users/me`
/// invocation's CPU time.
///
/// `init(json:)` only has to be right for what it accepts: anything it does not expect (a
/// missing member, another type, a number that does not fit) makes it refuse, and the event is
/// then decoded through `Decodable`, which gives the value or the exact `DecodingError`.
protocol JSONValueDecodable: Decodable {
    /// The value `init(from:)` would give for `json`; throws `JSONShapeMismatch` rather than
    /// guessing.
    init(json: JSONValue) throws(JSONShapeMismatch)
}

/// What `init(json:)` refuses with. It carries nothing: the `Decodable` path says what is wrong.
struct JSONShapeMismatch: Error {}

/// How the runtime decodes a typed handler's event: the direct path when the type has one and
/// the JSON fits it, `Decodable` through `JSONValueDecoder` otherwise.
public enum EventDecoding {
    /// `bytes` parsed and decoded as an `Event`; a `DecodingError` as `JSONDecoder` gives it.
    public static func decode<Event: Decodable>(
        _ type: Event.Type, from bytes: UnsafeBufferPointer<UInt8>
    ) throws -> Event {
        let value = try JSONValueDecoder.parse(bytes)
        if let direct = type as? any JSONValueDecodable.Type, let event = try? direct.init(json: value) {
            return event as! Event  // `direct` is `Event.self`
        }
        return try JSONValueDecoder().decode(type, from: value)
    }
}
