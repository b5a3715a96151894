import NIOCore
import Testing

@testable import LambdaRuntime

/// The runtime's own HTTP/1.1 client against replies any server may send, byte for byte.
struct RuntimeAPIClientTests {
    static func client(_ server: ScriptedHTTPServer) -> RuntimeAPIClient {
        RuntimeAPIClient(endpoint: RuntimeAPIEndpoint("127.0.0.1:\(server.port)")!)
    }

    /// A `100 Continue` is skipped, a chunked body is reassembled (extensions and trailers
    /// ignored), and the next request goes over the same connection.
    @Test func continueAndChunkedBodiesOnOneConnection() async throws {
        let server = try await ScriptedHTTPServer.start(replies: [
            .init(
                bytes: "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n"
                    + "Lambda-Runtime-Aws-Request-Id: r-1\r\n\r\n5;ext=1\r\nhello\r\n7\r\n, world\r\n0\r\nX-Trailer: t\r\n\r\n"
            ),
            .init(bytes: "HTTP/1.1 202 Accepted\r\ncontent-length: 15\r\n\r\n{\"status\":\"OK\"}"),
        ])
        defer { Task { await server.stop() } }
        let client = Self.client(server)
        let next = try client.send("GET", "/2018-06-01/runtime/invocation/next")
        #expect(next.status == 200)
        #expect(String(buffer: next.body) == "hello, world")
        #expect(next.header("lambda-runtime-aws-request-id") == "r-1")
        let posted = try client.send(
            "POST", "/2018-06-01/runtime/invocation/r-1/response", body: ByteBuffer(string: #"{"a":1}"#))
        #expect(posted.status == 202)
        #expect(String(buffer: posted.body) == #"{"status":"OK"}"#)
        #expect(server.connections == 1)
        let requests = server.requests
        #expect(requests.count == 2)
        #expect(requests.last?.hasPrefix("POST /2018-06-01/runtime/invocation/r-1/response HTTP/1.1\r\n") == true)
        #expect(requests.last?.contains("\r\nContent-Length: 7\r\n") == true)
        #expect(requests.last?.hasSuffix("\r\n\r\n{\"a\":1}") == true)
    }

    /// A header is found by its name in any case; its value comes without the blanks around
    /// it, the first of a repeated header wins, an empty value is empty, and a missing one is nil.
    @Test func headersAreLookedUpByNameInAnyCase() async throws {
        let server = try await ScriptedHTTPServer.start(replies: [
            .init(
                bytes: "HTTP/1.1 200 OK\r\nLambda-Runtime-Deadline-Ms: \t 1795802361428 \r\nX-Twice: first\r\n"
                    + "x-twice: second\r\nX-Empty:\r\nContent-Length: 2\r\n\r\n{}")
        ])
        defer { Task { await server.stop() } }
        let response = try Self.client(server).send("GET", "/2018-06-01/runtime/invocation/next")
        #expect(response.header("lambda-runtime-deadline-ms") == "1795802361428")
        #expect(response.header("LAMBDA-RUNTIME-DEADLINE-MS") == "1795802361428")
        #expect(response.header("X-Twice") == "first")
        #expect(response.header("X-Empty") == "")
        #expect(response.header("X-Missing") == nil)
        #expect(response.header("X-Twic") == nil)
        #expect(String(buffer: response.body) == "{}")
    }

    /// After `Connection: close`, or a body that ends with the connection, the next request
    /// opens a new connection instead of failing.
    @Test func aClosedConnectionIsReopened() async throws {
        let server = try await ScriptedHTTPServer.start(replies: [
            .init(bytes: "HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 2\r\n\r\nok", close: true),
            .init(bytes: "HTTP/1.1 200 OK\r\n\r\nuntil the end", close: true),
            .init(bytes: "HTTP/1.1 202 Accepted\r\nContent-Length: 0\r\n\r\n"),
        ])
        defer { Task { await server.stop() } }
        let client = Self.client(server)
        #expect(String(buffer: try client.send("GET", "/a").body) == "ok")
        #expect(String(buffer: try client.send("GET", "/b").body) == "until the end")
        #expect(try client.send("POST", "/c").status == 202)
        #expect(server.connections == 3)
    }

    /// What is not HTTP is an error that names it, never a crash or a made-up response.
    @Test func malformedRepliesAreErrors() async throws {
        let server = try await ScriptedHTTPServer.start(replies: [
            .init(bytes: "SSH-2.0-OpenSSH\r\n\r\n", close: true),
            .init(bytes: "HTTP/1.1 200 OK\r\nContent-Length: 99999999999\r\n\r\n", close: true),
            .init(bytes: "HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nshort", close: true),
        ])
        defer { Task { await server.stop() } }
        let client = Self.client(server)
        #expect(throws: RuntimeAPIClientError.self) { try client.send("GET", "/a") }
        #expect(throws: RuntimeAPIClientError.self) { try client.send("GET", "/b") }
        #expect(throws: RuntimeAPIClientError.self) { try client.send("GET", "/c") }
        #expect(server.requests.count == 3)
    }

    /// Nothing listening: a clear error with the address.
    @Test func nobodyListening() async throws {
        let server = try await ScriptedHTTPServer.start(replies: [])
        let port = server.port
        await server.stop()
        let client = RuntimeAPIClient(endpoint: RuntimeAPIEndpoint("127.0.0.1:\(port)")!)
        let error = #expect(throws: RuntimeAPIClientError.self) { try client.send("GET", "/a") }
        #expect(error.map(String.init(describing:))?.contains("127.0.0.1:\(port)") == true)
    }
}
