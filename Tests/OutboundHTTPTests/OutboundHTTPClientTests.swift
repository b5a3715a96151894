import Foundation
import LambdaRuntime
import OutboundHTTP
import TestServers
import Testing

/// The functions' HTTPS client against a local TLS server whose certificate comes from the
/// tests' own CA (`TLS/`), trusted only through the client's configuration.
struct OutboundHTTPClientTests {
    /// A client trusting the test CA, as `SSL_CERT_FILE` makes every function's client do.
    static func client(timeout: Duration = .seconds(30), maximumBytes: Int = 1 << 20) throws -> OutboundHTTPClient {
        var configuration = OutboundHTTPConfiguration(environment: ["SSL_CERT_FILE": HTTPSTestServer.file("ca")])
        configuration.timeout = timeout
        configuration.maximumResponseBytes = maximumBytes
        return OutboundHTTPClient(configuration: configuration)
    }

    @Test func sslCertFileNamesTheCABundleAndEmptyMeansTheSystems() {
        #expect(OutboundHTTPConfiguration(environment: ["SSL_CERT_FILE": "/tmp/ca.pem"]).caBundle == "/tmp/ca.pem")
        #expect(OutboundHTTPConfiguration(environment: ["SSL_CERT_FILE": ""]).caBundle == nil)
        #expect(OutboundHTTPConfiguration(environment: [:]).caBundle == nil)
        #expect(OutboundHTTPConfiguration(environment: ["HTTPS_PROXY": "http://proxy:3128"]).proxy == nil)
    }

    @Test func aCallSucceedsWhenTheServersCAIsTrusted() async throws {
        let server = try await HTTPSTestServer.start()
        defer { Task { await server.stop() } }
        let client = try Self.client()
        let response = try await offPool { try client.send(OutboundRequest(url: server.url("/ok"))) }
        #expect(response.status == 200)
        #expect(String(decoding: response.body, as: UTF8.self) == #"{"ok":true}"#)
        #expect(response.header("content-type") == "application/json")
    }

    @Test func aPostCarriesItsBodyAndHeaders() async throws {
        let server = try await HTTPSTestServer.start()
        defer { Task { await server.stop() } }
        let client = try Self.client()
        let body = Array("grant_type=authorization_code&code=x".utf8)
        let request = OutboundRequest(
            method: "POST", url: server.url("/echo"),
            headers: [("content-type", "application/x-www-form-urlencoded"), ("x-gatehouse-test", "1")], body: body)
        let response = try await offPool { try client.send(request) }
        #expect(response.status == 201)
        #expect(response.body == body)
        let seen = server.lastRequest
        #expect(seen.body == body)
        #expect(seen.headers["x-gatehouse-test"] == "1")
        #expect(seen.headers["content-type"] == "application/x-www-form-urlencoded")
        #expect(seen.headers["expect"] == nil)
    }

    @Test func threeCallsToOneHostShareOneConnection() async throws {
        let server = try await HTTPSTestServer.start()
        defer { Task { await server.stop() } }
        let client = try Self.client()
        for _ in 0..<3 {
            #expect(try await offPool { try client.send(OutboundRequest(url: server.url("/ok"))) }.status == 200)
        }
        #expect(server.requests == 3)
        #expect(server.connections == 1)
    }

    /// Each certificate the client must not trust fails the handshake, with OpenSSL's reason,
    /// before any request reaches the server.
    @Test(arguments: [
        ("other", "unable to get local issuer certificate"),
        ("expired", "certificate has expired"),
        ("wrong-host", "127.0.0.1"),
    ])
    func anUntrustedCertificateFailsClosed(certificate: String, reason: String) async throws {
        let server = try await HTTPSTestServer.start(certificate: certificate)
        defer { Task { await server.stop() } }
        let client = try Self.client()
        let error = try await #require(throws: OutboundHTTPError.self) {
            try await offPool { try client.send(OutboundRequest(url: server.url("/ok"))) }
        }
        guard case .tlsFailed(let host, let text) = error else {
            Issue.record("expected a TLS failure, got \(error)")
            return
        }
        #expect(host == "127.0.0.1")
        #expect(text.contains(reason), "\(text)")
        #expect(server.requests == 0)
    }

    /// Without the test CA (the system's trust store), the test server is not trusted either.
    @Test func theSystemsTrustStoreDoesNotTrustTheTestCA() async throws {
        let server = try await HTTPSTestServer.start()
        defer { Task { await server.stop() } }
        let client = OutboundHTTPClient(configuration: OutboundHTTPConfiguration(timeout: .seconds(30)))
        await #expect {
            try await offPool { try client.send(OutboundRequest(url: server.url("/ok"))) }
        } throws: { error in
            if case .tlsFailed = error as? OutboundHTTPError { return true }
            return false
        }
    }

    @Test func aRedirectIsAnErrorAndNotFollowed() async throws {
        let server = try await HTTPSTestServer.start()
        defer { Task { await server.stop() } }
        let client = try Self.client()
        await #expect(throws: OutboundHTTPError.redirected(host: "127.0.0.1", status: 302)) {
            try await offPool { try client.send(OutboundRequest(url: server.url("/redirect"))) }
        }
        #expect(server.requests == 1)
    }

    @Test(arguments: ["/big", "/big-chunked"])
    func aBodyOverTheCapFailsTheCall(path: String) async throws {
        let server = try await HTTPSTestServer.start()
        defer { Task { await server.stop() } }
        let client = try Self.client(maximumBytes: 1 << 20)
        await #expect(throws: OutboundHTTPError.tooLarge(host: "127.0.0.1", limit: 1 << 20)) {
            try await offPool { try client.send(OutboundRequest(url: server.url(path))) }
        }
        // A lower cap for one call.
        await #expect(throws: OutboundHTTPError.tooLarge(host: "127.0.0.1", limit: 4)) {
            try await offPool { try client.send(OutboundRequest(url: server.url("/ok")), maximumBytes: 4) }
        }
    }

    @Test func aStalledServerIsCutOffAtTheDeadline() async throws {
        let server = try await HTTPSTestServer.start()
        defer { Task { await server.stop() } }
        let client = try Self.client(timeout: .milliseconds(400))
        // Timed on the calling thread, around the call alone: the guarantee is the client's, not
        // how soon a busy test process resumes the test afterwards.
        let (result, elapsed) = try await offPool {
            let started = ContinuousClock.now
            let result = Result { () throws(OutboundHTTPError) in
                try client.send(OutboundRequest(url: server.url("/stall")))
            }
            return (result.map(\.status), ContinuousClock.now - started)
        }
        #expect(throws: OutboundHTTPError.timedOut(host: "127.0.0.1", milliseconds: 400)) { try result.get() }
        // Not before the deadline, give or take libcurl's own clock: it counts whole milliseconds
        // and cut a call at 399.94 ms of ours once.
        #expect(elapsed >= .milliseconds(395))
        // Well below the client's default 5 s (and the server's 600 s stall): the 400 ms limit
        // cut the call. A tighter bound failed under the whole suite's load (562 ms once, on a
        // thread the machine was slow to run), which says nothing about the client.
        #expect(elapsed < .seconds(2), "took \(elapsed)")
    }

    /// Inside an invocation, a call ends by the invocation's deadline when that comes first.
    @Test func theInvocationsDeadlineBoundsACall() async throws {
        let server = try await HTTPSTestServer.start()
        defer { Task { await server.stop() } }
        let client = try Self.client(timeout: .seconds(30))
        let deadline = InvocationDeadline.epochMilliseconds() + 300
        let error = await InvocationDeadline.$milliseconds.withValue(deadline) {
            await #expect(throws: OutboundHTTPError.self) {
                try await client.sendOnOwnThread(OutboundRequest(url: server.url("/stall")))
            }
        }
        // The call was given what was left of the 300 ms, not the client's 30 s.
        guard case .timedOut(_, let milliseconds) = error else {
            Issue.record("expected a timeout, got \(String(describing: error))")
            return
        }
        #expect(milliseconds > 0 && milliseconds <= 300)
        // A deadline already past: no call at all.
        await InvocationDeadline.$milliseconds.withValue(deadline - 1000) {
            await #expect(throws: OutboundHTTPError.timedOut(host: "127.0.0.1", milliseconds: 0)) {
                try await client.sendOnOwnThread(OutboundRequest(url: server.url("/ok")))
            }
        }
    }

    @Test func aClosedPortFailsToConnect() async throws {
        let server = try await HTTPSTestServer.start()
        let url = server.url("/ok")
        await server.stop()
        let client = try Self.client()
        await #expect {
            try await offPool { try client.send(OutboundRequest(url: url)) }
        } throws: { error in
            if case .connectFailed(let host, _) = error as? OutboundHTTPError { return host == "127.0.0.1" }
            return false
        }
    }

    @Test(arguments: [
        "ftp://example.com/jwks.json", "http://example.com/jwks.json", "https://user:secret@example.com/",
        "https://:443/", "https://example.com:99999/", "example.com/jwks.json",
    ])
    func urlsItWillNotCallAreRefusedBeforeAnyConnection(url: String) throws {
        #expect {
            try OutboundHTTPClient().send(OutboundRequest(url: url))
        } throws: { error in
            guard case .unsupportedURL(let reason) = error as? OutboundHTTPError else { return false }
            return !reason.contains("secret")
        }
    }
}
