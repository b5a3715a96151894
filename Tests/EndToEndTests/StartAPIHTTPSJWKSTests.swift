import Emulator
import Foundation
import GatehouseJSON
import JOSE
import TestServers
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The Authorizer as deployed: its JWKS fetched over HTTPS (libcurl, OpenSSL), from a local
/// server whose certificate comes from the tests' CA, trusted through `SSL_CERT_FILE`.
struct StartAPIHTTPSJWKSTests {
    let cli = GatehouseCLI()

    @Test func theAuthorizerFetchesItsKeysOverHTTPSAndIgnoresProxyVariables() async throws {
        let keys = try await HTTPSTestServer.start()
        defer { Task { await keys.stop() } }
        // The signing keys' public half served over HTTPS before start-api starts: the Authorizer
        // fetches its keys as soon as start-api answers.
        #expect(try await cli.run(["keys", "generate"]).status == 0)
        let signing = try SigningKeySet(jwksJSON: Data(contentsOf: URL(fileURLWithPath: cli.keysFile)))
        let document = Array(try JSONEncoder().encode(signing.publicJWKS))
        keys.serve(document)
        let api = try await LocalAPI(
            template: GatehouseCLI.projectTemplate, cli: cli,
            variables: [
                "Authorizer": [
                    "JWKS_URL": keys.url("/document"), "SSL_CERT_FILE": HTTPSTestServer.file("ca"),
                    // Nothing listens there: a client that used them could not fetch.
                    "HTTPS_PROXY": "http://127.0.0.1:9", "https_proxy": "http://127.0.0.1:9",
                    "JWKS_FETCH_TIMEOUT_SECONDS": "8",
                ]
            ])
        defer { api.process.kill(SIGINT) }
        // The same keys as the Jwks function publishes.
        let published = try await api.request("GET", "/.well-known/jwks.json")
        #expect(published.status == 200)
        #expect(try JSONValue(parsing: published.body) == JSONValue(parsing: document))

        let signedIn = try await api.signIn("ada@example.com", cli: cli)
        #expect(signedIn.status == 200)
        let token = try #require(signedIn.accessToken)
        let profile = try await api.request("GET", "/users/me", headers: [("Authorization", "Bearer \(token)")])
        #expect(profile.status == 200, "\(api.log)")
        #expect(try JSONValue(parsing: profile.body)["email"] == "ada@example.com")
        #expect(keys.requests >= 1)
        // The Authorizer asked the HTTPS server, not the local API, for its keys.
        #expect(api.log.components(separatedBy: "GET /.well-known/jwks.json").count - 1 == 1)
        _ = await api.stop()
    }

    /// A server whose certificate the Authorizer does not trust gives it no keys: every token
    /// is refused, and the log says why without the token.
    @Test func anUntrustedJWKSServerFailsClosed() async throws {
        let keys = try await HTTPSTestServer.start(certificate: "other")
        defer { Task { await keys.stop() } }
        let api = try await LocalAPI(
            template: GatehouseCLI.projectTemplate, cli: cli,
            variables: [
                "Authorizer": ["JWKS_URL": keys.url("/document"), "SSL_CERT_FILE": HTTPSTestServer.file("ca")]
            ])
        defer { api.process.kill(SIGINT) }
        let token = try #require(try await api.signIn("ada@example.com", cli: cli).accessToken)
        let profile = try await api.request("GET", "/users/me", headers: [("Authorization", "Bearer \(token)")])
        #expect(profile.status == 403)
        #expect(keys.requests == 0)
        // The function's log reaches start-api's through a pipe, maybe just after the answer.
        let logged = try await eventually(10) { api.log.contains("unable to get local issuer certificate") }
        #expect(logged, "\(api.log)")
        #expect(!api.log.contains(token))
        _ = await api.stop()
    }
}
