import AuthKit
import OutboundHTTP

/// The provider's token endpoint over the functions' HTTPS client, within 5 s.
struct HTTPTokenEndpoint: OAuthTokenEndpoint {
    let client: OutboundHTTPClient

    func post(_ url: String, form body: String, authorization: String?) async throws -> [UInt8] {
        var headers = [("content-type", "application/x-www-form-urlencoded"), ("accept", "application/json")]
        if let authorization { headers.append(("authorization", authorization)) }
        let response = try await client.sendOnOwnThread(
            OutboundRequest(method: "POST", url: url, headers: headers, body: Array(body.utf8)), timeout: .seconds(5),
            maximumBytes: 64 * 1024)
        guard response.status == 200 else { throw TokenEndpointError.status(response.status) }
        return response.body
    }
}

/// The token endpoint answered, but not with tokens.
enum TokenEndpointError: Error, CustomStringConvertible {
    case status(Int)

    var description: String {
        switch self {
        case .status(let code): "the token endpoint answered \(code)"
        }
    }
}
