import NIOCore
import NIOHTTP1
import Synchronization

/// One connection to the local API: collects each request, hands it to the gateway on a task of
/// its own, and writes the answer back on the connection's event loop.
///
/// `HTTPServerPipelineHandler` in front of it holds a pipelined request back until the answer to
/// the one before has been written, so answers go out in order. A body over the limit is read to
/// its end without being kept, and answered 413 with the connection still usable.
final class APIRequestHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let gateway: APIListener.Gateway
    private var head: HTTPRequestHead?
    private var body: ByteBuffer?
    private var oversized = false

    init(gateway: APIListener.Gateway) {
        self.gateway = gateway
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            self.head = head
            body = nil
            oversized = false
            if head.headers[canonicalForm: "expect"].contains(where: { $0.lowercased() == "100-continue" }) {
                context.writeAndFlush(
                    wrapOutboundOut(.head(HTTPResponseHead(version: head.version, status: .continue))), promise: nil)
            }
        case .body(var chunk):
            guard !oversized else { return }
            if (body?.readableBytes ?? 0) + chunk.readableBytes > LocalAPIGateway.maximumRequestBytes {
                oversized = true
                body = nil
            } else if body == nil {
                body = chunk
            } else {
                body!.writeBuffer(&chunk)
            }
        case .end:
            guard let head else { return }
            self.head = nil
            let body = self.body
            self.body = nil
            respond(to: head, body: body, context: context)
        }
    }

    private func respond(to head: HTTPRequestHead, body: ByteBuffer?, context: ChannelHandlerContext) {
        guard !oversized else {
            return write(.message(413, "Request Entity Too Large"), for: head, context: context)
        }
        guard let gateway = gateway.current.withLock({ $0 }) else {
            return write(.message(503, "Service Unavailable"), for: head, context: context)
        }
        let request = Self.request(head, body: body, source: context.channel.remoteAddress)
        let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        let eventLoop = context.eventLoop
        Task {
            let answer = await gateway.handle(request)
            eventLoop.execute {
                let (handler, context) = loopBound.value
                handler.write(answer, for: head, context: context)
            }
        }
    }

    /// The gateway's view of a request: the path and query as sent, every header line in order.
    private static func request(_ head: HTTPRequestHead, body: ByteBuffer?, source: SocketAddress?) -> APIRequest {
        let uri = head.uri
        let path: String
        let query: String
        if let mark = uri.utf8.firstIndex(of: UInt8(ascii: "?")) {
            path = String(uri[..<mark])
            query = String(uri[uri.index(after: mark)...])
        } else {
            path = uri
            query = ""
        }
        var headers: [(name: String, value: String)] = []
        headers.reserveCapacity(head.headers.count)
        for (name, value) in head.headers { headers.append((name, value)) }
        return APIRequest(
            method: head.method.rawValue, rawPath: path, rawQuery: query, headers: headers,
            body: body.map { Array($0.readableBytesView) } ?? [], sourceIP: source?.ipAddress ?? "127.0.0.1",
            httpProtocol: "HTTP/\(head.version.major).\(head.version.minor)")
    }

    /// Header lines that frame the message on this connection: ours to set, whatever the function
    /// answered, or the client would misread the stream.
    private static let framing: Set<String> = ["content-length", "transfer-encoding", "connection"]

    private func write(_ answer: APIResponse, for request: HTTPRequestHead, context: ChannelHandlerContext) {
        var headers = HTTPHeaders()
        headers.reserveCapacity(answer.headers.count + 3)
        for line in answer.headers where !Self.framing.contains(line.name.lowercased()) {
            headers.add(name: line.name, value: line.value)
        }
        // 1xx, 204 and 304 answers carry no body, whatever the function said.
        let bodyless = answer.status < 200 || answer.status == 204 || answer.status == 304
        if !bodyless { headers.add(name: "Content-Length", value: String(answer.body.count)) }
        headers.add(name: "Date", value: HTTPDate.now())
        let keepAlive = request.isKeepAlive
        if !keepAlive { headers.add(name: "Connection", value: "close") }
        let status = HTTPResponseStatus(statusCode: answer.status)
        context.write(
            wrapOutboundOut(.head(HTTPResponseHead(version: request.version, status: status, headers: headers))),
            promise: nil)
        // A HEAD answer says how long the body would be, and sends none.
        if !answer.body.isEmpty, !bodyless, request.method != .HEAD {
            context.write(
                wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(bytes: answer.body)))),
                promise: nil)
        }
        let written = context.writeAndFlush(wrapOutboundOut(.end(nil)))
        if !keepAlive {
            let channel = context.channel
            written.whenComplete { _ in channel.close(promise: nil) }
        }
    }
}
