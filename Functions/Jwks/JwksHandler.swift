#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import JOSE
import LambdaRuntime

/// `GET /.well-known/jwks.json`: the public signing keys, current first.
struct JwksHandler: LambdaHandler {
    /// Encoded once at initialisation: the keys do not change during an instance's life.
    let body: String

    init(keys: SigningKeySet) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        body = String(decoding: try encoder.encode(keys.publicJWKS), as: UTF8.self)
    }

    func handle(_ event: APIGatewayV2Request, context: LambdaContext) async throws -> APIGatewayV2Response {
        APIGatewayV2Response(
            statusCode: 200,
            headers: ["content-type": "application/json", "cache-control": "public, max-age=600"],
            body: body
        )
    }
}
