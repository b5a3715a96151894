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
    let responses: [PayloadFormat: ByteBuffer]

    init(publicKeys: JWKSet) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let answer = HTTPResponse(
            statusCode: 200, headers: ["content-type": "application/json", "cache-control": "public, max-age=600"],
            body: String(decoding: try encoder.encode(publicKeys), as: UTF8.self))
        var responses: [PayloadFormat: ByteBuffer] = [:]
        for format in PayloadFormat.allCases {
            responses[format] = ByteBuffer(bytes: answer.serialized(for: format))
        }
        self.responses = responses
    }

    func handle(_ event: ByteBuffer, context: LambdaContext) async throws -> ByteBuffer {
        let format = event.withUnsafeReadableBytes { raw in
            try? PayloadFormat(event: raw.bindMemory(to: UInt8.self))
        }
        return responses[format ?? .v2]!
    }
}
