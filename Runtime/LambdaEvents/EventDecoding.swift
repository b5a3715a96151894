import GatehouseJSON
import LambdaRuntime

/// How the runtime decodes a typed handler's event: parsed by GatehouseJSON's parser and
/// decoded through `JSONValueDecoder`, with the `DecodingError`s `JSONDecoder` gives. (HTTP
/// functions do not decode events this way: HTTPEdge reads only the members they use.)
public enum EventDecoding {
    /// `bytes` decoded as an `Event`; a `DecodingError` as `JSONDecoder` gives it.
    public static func decode<Event: Decodable>(
        _ type: Event.Type, from bytes: UnsafeBufferPointer<UInt8>
    ) throws -> Event {
        try JSONValueDecoder().decode(type, from: try JSONValueDecoder.parse(bytes))
    }
}
