import NIOCore

/// A handler that takes the raw event bytes and returns the raw response bytes.
///
/// Use it when the payload is not JSON, or to avoid a decode/encode round trip.
public protocol ByteLambdaHandler: Sendable {
    /// Handles one invocation. A thrown error is reported to the Runtime API as the invocation's error.
    func handle(_ event: ByteBuffer, context: LambdaContext) async throws -> ByteBuffer
}
