import Foundation

/// The claims of an access token the client reads for itself (its assurance), read without
/// checking the signature: the token is the client's own, from the server it called, and the
/// server checks it on every use.
struct AccessTokenClaims: Decodable {
    struct Method: Decodable {
        let method: String
    }

    let aal: String?
    let amr: [Method]?

    /// The claims of `token` (a JWT); `malformedAnswer` for anything else.
    init(_ token: String) throws {
        let parts = token.split(separator: ".")
        guard parts.count == 3 else { throw GatehouseClientError.malformedAnswer(status: 200) }
        var text = parts[1].replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        text += String(repeating: "=", count: (4 - text.count % 4) % 4)
        guard let data = Data(base64Encoded: text), let claims = try? JSONDecoder().decode(Self.self, from: data)
        else { throw GatehouseClientError.malformedAnswer(status: 200) }
        self = claims
    }
}
