#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension APIGatewayV2Request {
    /// The exact bytes the client sent: the body with API Gateway's base64 undone when it
    /// applied it; empty without a body. What a signature over the body must cover.
    public func bodyBytes() throws(RequestBodyError) -> [UInt8] {
        guard let body else { return [] }
        guard isBase64Encoded else { return Array(body.utf8) }
        guard let data = Data(base64Encoded: body) else { throw .notJSON }
        return Array(data)
    }
}
