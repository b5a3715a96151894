import NIOCore
import NIOHTTP1
import NIOPosix

/// One HTTP/1.1 keep-alive connection to the Lambda Runtime API, used for every call of the loop.
///
/// Requests go out one at a time and each waits for its whole response; the Runtime API never
/// pipelines, and the `/next` call has no timeout because it waits for the next event.
struct RuntimeAPIClient {
    /// A full response from the Runtime API.
    struct Response {
        var status: HTTPResponseStatus
        var headers: HTTPHeaders
        var body: ByteBuffer
    }

    typealias Channel = NIOAsyncChannel<HTTPClientResponsePart, HTTPClientRequestPart>

    private let hostHeader: String
    private var inbound: NIOAsyncChannelInboundStream<HTTPClientResponsePart>.AsyncIterator
    private let outbound: NIOAsyncChannelOutboundWriter<HTTPClientRequestPart>

    /// Connects to `endpoint` and runs `body` with the client; the connection is closed afterwards.
    static func withConnection<Result>(
        to endpoint: RuntimeAPIEndpoint,
        _ body: (inout RuntimeAPIClient) async throws -> Result
    ) async throws -> Result {
        let channel: Channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .channelOption(.socketOption(.tcp_nodelay), value: 1)
            .connect(host: endpoint.host, port: endpoint.port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHTTPClientHandlers()
                    return try Channel(wrappingChannelSynchronously: channel)
                }
            }
        return try await channel.executeThenClose { inbound, outbound in
            var client = RuntimeAPIClient(
                hostHeader: endpoint.hostHeader,
                inbound: inbound.makeAsyncIterator(),
                outbound: outbound
            )
            return try await body(&client)
        }
    }

    private init(
        hostHeader: String,
        inbound: NIOAsyncChannelInboundStream<HTTPClientResponsePart>.AsyncIterator,
        outbound: NIOAsyncChannelOutboundWriter<HTTPClientRequestPart>
    ) {
        self.hostHeader = hostHeader
        self.inbound = inbound
        self.outbound = outbound
    }

    /// Sends one request and reads its whole response.
    mutating func send(
        _ method: HTTPMethod,
        _ path: String,
        headers extraHeaders: [(String, String)] = [],
        body: ByteBuffer? = nil
    ) async throws -> Response {
        var headers = HTTPHeaders()
        headers.reserveCapacity(4 + extraHeaders.count)
        headers.add(name: "Host", value: hostHeader)
        headers.add(name: "User-Agent", value: "gatehouse-lambda-runtime")
        if method != .GET {
            headers.add(name: "Content-Length", value: String(body?.readableBytes ?? 0))
        }
        for (name, value) in extraHeaders {
            headers.add(name: name, value: value)
        }
        var parts: [HTTPClientRequestPart] = [
            .head(HTTPRequestHead(version: .http1_1, method: method, uri: path, headers: headers))
        ]
        if let body, body.readableBytes > 0 {
            parts.append(.body(.byteBuffer(body)))
        }
        parts.append(.end(nil))
        try await outbound.write(contentsOf: parts)

        var head: HTTPResponseHead?
        var collected: ByteBuffer?
        while let part = try await inbound.next() {
            switch part {
            case .head(let responseHead):
                head = responseHead
            case .body(var chunk):
                if collected == nil {
                    collected = chunk
                } else {
                    collected!.writeBuffer(&chunk)
                }
            case .end:
                guard let head else { throw RuntimeAPIClientError.malformedResponse }
                return Response(status: head.status, headers: head.headers, body: collected ?? ByteBuffer())
            }
        }
        throw RuntimeAPIClientError.connectionClosed
    }
}

/// Why a call to the Runtime API failed at the transport level.
enum RuntimeAPIClientError: Error, CustomStringConvertible {
    case connectionClosed
    case malformedResponse

    var description: String {
        switch self {
        case .connectionClosed: "the Runtime API closed the connection"
        case .malformedResponse: "the Runtime API sent a response without a head"
        }
    }
}
