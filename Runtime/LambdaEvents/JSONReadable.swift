import GatehouseJSON
import LambdaRuntime

/// An event type read straight from its JSON text with `JSONReader`, with no `JSONValue` tree
/// and no `Decoder`: API Gateway's payload 2.0 request, which HTTP functions decode on every
/// invocation. Building the tree and then the request from it was about a sixth of a warm
/// `GET /users/me` invocation's CPU time.
///
/// `init(reading:)` only has to be right for what it accepts: anything it does not expect (a
/// missing or repeated member, another type, a number that does not fit) makes it throw, and
/// the event is then decoded through `Decodable`, which gives the value or the exact
/// `DecodingError`.
protocol JSONReadable: Decodable {
    /// The value `init(from:)` would give for the JSON at `reader`; throws rather than guessing.
    init(reading reader: inout JSONReader) throws
}

/// What `init(reading:)` refuses a missing or repeated member with. It carries nothing: the
/// `Decodable` path says what is wrong.
struct JSONShapeMismatch: Error {}

/// How the runtime decodes a typed handler's event: the direct path when the type has one and
/// the JSON fits it, `Decodable` through `JSONValueDecoder` otherwise.
public enum EventDecoding {
    /// `bytes` decoded as an `Event`; a `DecodingError` as `JSONDecoder` gives it.
    public static func decode<Event: Decodable>(
        _ type: Event.Type, from bytes: UnsafeBufferPointer<UInt8>
    ) throws -> Event {
        if let direct = type as? any JSONReadable.Type, let event = read(direct, from: bytes, as: type) {
            return event
        }
        return try JSONValueDecoder().decode(type, from: try JSONValueDecoder.parse(bytes))
    }

    /// The direct path, generic over the opened type so the value is never boxed in an
    /// existential on the way back; `Direct` is `Event`, so the cast is an identity.
    private static func read<Direct: JSONReadable, Event>(
        _: Direct.Type, from bytes: UnsafeBufferPointer<UInt8>, as _: Event.Type
    ) -> Event? {
        (try? JSONReader.read(bytes) { reader in try Direct(reading: &reader) }) as? Event
    }
}
