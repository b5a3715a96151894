import JOSE
import JOSEHTTP
import OutboundHTTP
import Testing

struct HTTPJWKSFetcherTests {
    @Test func oversizeDocumentsAreCutOffWithOrWithoutALength() async throws {
        let server = try await JWKSServer.start(.large(600 * 1024))
        defer { Task { await server.stop() } }
        // A deadline far off (see `patient`): this test is about size.
        let fetcher = HTTPJWKSFetcher(timeout: .seconds(60), maximumBytes: 512 * 1024, client: .patient)
        await #expect(throws: JWKSFetchError.tooLarge(limit: 512 * 1024)) {
            try await fetcher.fetchJWKS(from: server.url)
        }
        server.set(.largeChunked(600 * 1024))
        await #expect(throws: JWKSFetchError.tooLarge(limit: 512 * 1024)) {
            try await fetcher.fetchJWKS(from: server.url)
        }
        server.set(.large(1000))
        #expect(try await fetcher.fetchJWKS(from: server.url).count == 1000)
    }

    @Test func aServerThatNeverAnswersIsCutOffAtTheTimeout() async throws {
        let server = try await JWKSServer.start(.hang)
        defer { Task { await server.stop() } }
        let fetcher = HTTPJWKSFetcher(timeout: .milliseconds(300))
        await #expect(throws: JWKSFetchError.timedOut(after: .milliseconds(300))) {
            try await fetcher.fetchJWKS(from: server.url)
        }
    }

    @Test func statusesOtherThan200AreErrors() async throws {
        let server = try await JWKSServer.start(.status(503))
        defer { Task { await server.stop() } }
        await #expect(throws: JWKSFetchError.status(503)) {
            try await HTTPJWKSFetcher.patient.fetchJWKS(from: server.url)
        }
    }

    /// A redirect is a failed fetch, not followed: keys come from the configured URL only.
    @Test func redirectsAreNotFollowed() async throws {
        let target = try await JWKSServer.start(.serve(#"{"keys":[]}"#))
        defer { Task { await target.stop() } }
        let server = try await JWKSServer.start(.redirect(target.url))
        defer { Task { await server.stop() } }
        await #expect(throws: OutboundHTTPError.redirected(host: "127.0.0.1", status: 302)) {
            try await HTTPJWKSFetcher.patient.fetchJWKS(from: server.url)
        }
        #expect(target.requests == 0)
    }
}
