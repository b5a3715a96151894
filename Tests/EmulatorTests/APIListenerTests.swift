import Foundation
import LambdaRuntime
import NIOCore
import Testing

@testable import Emulator

/// The local API's HTTP server on the wire, in front of a gateway whose one route has no
/// function behind it (its answer is the integration failure, 500): what HTTP clients other
/// than the tests' own send.
struct APIListenerTests {
    static func withListener(attached: Bool = true, _ body: (String) async throws -> Void) async throws {
        let listener = try await APIListener.start(host: "127.0.0.1", port: 0)
        if attached {
            let route = HTTPRoute(
                function: "Missing", event: "Get", kind: .httpAPI, method: "GET", path: "/a", payloadFormat: .v2,
                authorizer: nil)
            listener.attach(LocalAPIGateway(routes: try RouteTable(routes: [route]), pools: [:], log: { _ in }))
        }
        do {
            try await body("127.0.0.1:\(listener.port)")
        } catch {
            await listener.stop()
            throw error
        }
        await listener.stop()
    }

    /// The status lines in order. A body has a Content-Length and no line end, so the next
    /// status line may follow it directly.
    static func statuses(_ text: String) -> [String] {
        text.components(separatedBy: "HTTP/1.").dropFirst().map {
            "HTTP/1." + ($0.components(separatedBy: "\r\n").first ?? "")
        }
    }

    /// Requests written at once are answered in their order, though each is answered on a task.
    @Test func pipelinedRequestsAreAnsweredInOrder() async throws {
        try await Self.withListener { address in
            let text = try await RuntimeAPIServerTests.exchange(
                address,
                "GET /a HTTP/1.1\r\nHost: x\r\n\r\nGET /nothing HTTP/1.1\r\nHost: x\r\n\r\n"
                    + "HEAD /nothing HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            #expect(
                Self.statuses(text) == [
                    "HTTP/1.1 500 Internal Server Error", "HTTP/1.1 404 Not Found", "HTTP/1.1 404 Not Found",
                ], "\(text)")
            // The HEAD answer has the length of the body it does not send: the text ends with it.
            #expect(text.hasSuffix("Connection: close\r\n\r\n"), "\(text)")
            #expect(text.components(separatedBy: "Content-Length: 23\r\n").count == 3, "\(text)")
        }
    }

    @Test func notHTTPIsABadRequestAndCloses() async throws {
        try await Self.withListener { address in
            let text = try await RuntimeAPIServerTests.exchange(address, "HELLO THERE\r\n\r\n")
            #expect(text.hasPrefix("HTTP/1.1 400 Bad Request\r\n"), "\(text)")
        }
    }

    /// Before start-api has built its gateway, requests are told to come back later.
    @Test func beforeTheGatewayIsAttachedRequestsGet503() async throws {
        try await Self.withListener(attached: false) { address in
            let text = try await RuntimeAPIServerTests.exchange(
                address, "GET /a HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            #expect(Self.statuses(text) == ["HTTP/1.1 503 Service Unavailable"], "\(text)")
        }
    }

    /// `Expect: 100-continue` gets the interim answer before the body is sent; HTTP/1.0 without
    /// keep-alive is answered in 1.0 and closed, and its `Expect` is ignored.
    @Test func continueAndHTTP10() async throws {
        try await Self.withListener { address in
            let continued = try await RuntimeAPIServerTests.exchange(
                address,
                "POST /nothing HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 2\r\n"
                    + "Connection: close\r\n\r\nhi")
            #expect(Self.statuses(continued) == ["HTTP/1.1 100 Continue", "HTTP/1.1 404 Not Found"], "\(continued)")
            let old = try await RuntimeAPIServerTests.exchange(address, "GET /nothing HTTP/1.0\r\n\r\n")
            #expect(Self.statuses(old) == ["HTTP/1.0 404 Not Found"], "\(old)")
            #expect(old.contains("Connection: close\r\n"))
            // An HTTP/1.0 client's Expect is ignored: it may take a 1xx for the answer.
            let oldExpecting = try await RuntimeAPIServerTests.exchange(
                address, "POST /nothing HTTP/1.0\r\nExpect: 100-continue\r\nContent-Length: 2\r\n\r\nhi")
            #expect(Self.statuses(oldExpecting) == ["HTTP/1.0 404 Not Found"], "\(oldExpecting)")
        }
    }
}
