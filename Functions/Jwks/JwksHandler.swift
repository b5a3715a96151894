import HTTPEdge
import JOSE
import LambdaRuntime
import NIOCore

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `GET /.well-known/jwks.json`: the public signing keys, current first.
///
/// The answer depends on nothing in the request, so it is encoded once at initialisation, in
/// both payload formats, and of the event only its format is read (the route itself is API
/// Gateway's to match). An event of neither format gets the 2.0 answer.
struct JwksHandler: ByteLambdaHandler {
    let payload1: ByteBuffer
    let payload2: ByteBuffer

    init(publicKeys: JWKSet) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let answer = HTTPResponse(
            statusCode: 200, headers: ["content-type": "application/json", "cache-control": "public, max-age=600"],
            body: String(decoding: try encoder.encode(publicKeys), as: UTF8.self))
        payload1 = ByteBuffer(bytes: answer.serialized(for: .v1))
        payload2 = ByteBuffer(bytes: answer.serialized(for: .v2))
    }

    func handle(_ event: ByteBuffer, context: LambdaContext) async throws -> ByteBuffer {
        let format = event.withUnsafeReadableBytes { raw in
            try? PayloadFormat(event: raw.bindMemory(to: UInt8.self))
        }
        return format == .v1 ? payload1 : payload2
    }
}
