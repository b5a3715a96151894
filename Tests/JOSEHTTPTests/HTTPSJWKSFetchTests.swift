import Foundation
import HummingbirdTLS
import JOSE
import JOSEHTTP
import NIOSSL
import OutboundHTTP
import Testing

/// The JWKS over HTTPS, from a local server whose certificate is self-signed for 127.0.0.1
/// (`TLS/`: made for these tests, valid until 2126; its key protects nothing).
struct HTTPSJWKSFetchTests {
    static let document =
        #"{"keys":[{"kty":"OKP","crv":"Ed25519","x":"11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo","kid":"a"}]}"#

    static func certificate() throws -> (certificate: NIOSSLCertificate, key: NIOSSLPrivateKey) {
        let folder = try #require(Bundle.module.url(forResource: "TLS", withExtension: nil))
        return (
            try NIOSSLCertificate(file: folder.appendingPathComponent("localhost-cert.pem").path, format: .pem),
            try NIOSSLPrivateKey(file: folder.appendingPathComponent("localhost-key.pem").path, format: .pem)
        )
    }

    static func server() async throws -> JWKSServer {
        let (certificate, key) = try certificate()
        return try await JWKSServer.start(
            .serve(document),
            tls: .makeServerConfiguration(certificateChain: [.certificate(certificate)], privateKey: .privateKey(key)))
    }

    @Test func aKeySetServedOverHTTPSIsFetchedAndCachedWhenTheCertificateIsTrusted() async throws {
        let server = try await Self.server()
        defer { Task { await server.stop() } }
        #expect(server.url.hasPrefix("https://"))
        let folder = try #require(Bundle.module.url(forResource: "TLS", withExtension: nil))
        let client = OutboundHTTPClient(
            configuration: .patient(caBundle: folder.appendingPathComponent("localhost-cert.pem").path))
        let fetcher = HTTPJWKSFetcher(timeout: .seconds(60), client: client)
        #expect(try await fetcher.fetchJWKS(from: server.url) == Array(Self.document.utf8))
        let cache = JWKSCache(url: server.url, fetcher: fetcher)
        try await cache.hydrate()
        #expect(try await cache.keys(for: "a").knows(kid: "a"))
        #expect(server.requests == 2)
    }

    /// With the system's trust store (the default client), the self-signed certificate is
    /// refused during the handshake: no request reaches the server.
    @Test func anUntrustedCertificateIsRefused() async throws {
        let server = try await Self.server()
        defer { Task { await server.stop() } }
        let client = OutboundHTTPClient(configuration: .patient())
        await #expect {
            try await HTTPJWKSFetcher(timeout: .seconds(60), client: client).fetchJWKS(from: server.url)
        } throws: { error in
            if case .tlsFailed = error as? OutboundHTTPError { return true }
            return false
        }
        #expect(server.requests == 0)
    }
}
