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
/// The answer depends on nothing in the request, so it is encoded once at initialisation and the
/// event is not decoded at all (the route itself is API Gateway's to match).
struct JwksHandler: ByteLambdaHandler {
    let response: ByteBuffer

    init(publicKeys: JWKSet) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let body = String(decoding: try encoder.encode(publicKeys), as: UTF8.self)
        let answer = APIGatewayV2Response(
            statusCode: 200,
            headers: ["content-type": "application/json", "cache-control": "public, max-age=600"],
            body: body
        )
        response = ByteBuffer(bytes: try encoder.encode(answer))
    }

    func handle(_ event: ByteBuffer, context: LambdaContext) async throws -> ByteBuffer {
        response
    }
}
