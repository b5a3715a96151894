import GatehouseJSON
import LambdaRuntime
import NIOCore

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A handler with a typed event and response: the runtime decodes the event JSON into `Event`
/// and encodes `Output` as the response JSON.
public protocol LambdaHandler: Sendable {
    /// The event type, decoded from the invocation payload.
    associatedtype Event: Decodable
    /// The response type, encoded as the invocation response.
    associatedtype Output: Encodable

    /// Handles one invocation. A thrown error is reported to the Runtime API as the invocation's error.
    func handle(_ event: Event, context: LambdaContext) async throws -> Output
}

/// Runs a typed handler as a byte handler: decode, handle, encode.
struct CodableHandlerAdapter<Handler: LambdaHandler>: ByteLambdaHandler {
    let handler: Handler

    func handle(_ event: ByteBuffer, context: LambdaContext) async throws -> ByteBuffer {
        let decoded: Handler.Event
        do {
            // This module's parser and decoder: Foundation's JSONDecoder was a quarter of a warm
            // invocation's CPU time for an API Gateway event.
            decoded = try event.withUnsafeReadableBytes { bytes in
                try EventDecoding.decode(Handler.Event.self, from: bytes.bindMemory(to: UInt8.self))
            }
        } catch {
            throw InvocationError(
                type: "Runtime.UnmarshalError",
                message: "could not decode the event as \(Handler.Event.self): \(DecodingErrorDescription(error))"
            )
        }
        let output = try await handler.handle(decoded, context: context)
        if let direct = output as? any JSONValueRepresentable {
            return ByteBuffer(bytes: direct.serializedJSON)
        }
        do {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            return ByteBuffer(bytes: try encoder.encode(output))
        } catch {
            throw InvocationError(type: "Runtime.MarshalError", message: "could not encode the response: \(error)")
        }
    }
}

extension Lambda {
    /// Runs a typed (JSON) handler until the process is stopped.
    public static func run<Handler: LambdaHandler>(
        _ makeHandler: @escaping @Sendable () async throws -> Handler
    ) async -> Never {
        await runBytes { CodableHandlerAdapter(handler: try await makeHandler()) }
    }
}
