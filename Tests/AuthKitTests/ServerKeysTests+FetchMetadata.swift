import AuthKit
import Testing

extension ServerKeysTests {
    /// A browser sends no `Origin` on a same-origin GET or a navigation, but every current one
    /// sends its fetch metadata (`Sec-Fetch-*`), which a server's SDK never does: either refuses
    /// a server key, as `Origin` does.
    @Test(arguments: ["same-origin", "navigate", "document"])
    func aRequestWithFetchMetadataIsABrowsers(_ value: String) async throws {
        let (secret, _) = try await keys.create(app: "demo")
        await #expect(throws: ServerKeyError.fromBrowser) {
            try await keys.authenticate(
                apikey: secret, authorization: "Bearer \(secret)", origin: nil, fetchMetadata: value,
                sourceIP: "192.0.2.1")
        }
    }
}
