import OutboundHTTP

/// One POST to a delivery provider that is not AWS, through the functions' HTTPS client: the
/// answer when it is a 2xx, or the `ProviderCallError` that names the failure (the statuses in
/// `passing` are returned too, for a caller that reads them: Twilio's 404 and 429).
enum ProviderCall {
    static func post(
        _ request: OutboundRequest, provider: String, operation: String, http: OutboundHTTPClient,
        passing: Set<Int> = []
    ) async throws -> OutboundResponse {
        let response: OutboundResponse
        do {
            response = try await http.sendOnOwnThread(request)
        } catch {
            throw ProviderCallError(provider: provider, operation: operation, status: 0, code: "\(error)")
        }
        guard (200..<300).contains(response.status) || passing.contains(response.status) else {
            throw ProviderCallError(
                provider: provider, operation: operation, status: response.status,
                code: ProviderCallError.code(response.body))
        }
        return response
    }
}
