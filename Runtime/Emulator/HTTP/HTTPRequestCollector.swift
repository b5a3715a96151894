import NIOCore
import NIOHTTP1

/// Reads the parts NIO's request decoder hands over into whole requests, for both of the
/// emulator's servers (the local API and each Runtime API): the body kept up to `limit` bytes,
/// and past it read to its end without being kept, so the answer can be a 413 on a connection
/// still in step; `Expect: 100-continue` answered at once.
struct HTTPRequestCollector {
    /// A whole request.
    struct Request {
        let head: HTTPRequestHead
        let body: ByteBuffer
        /// The body was over the limit; `body` is empty.
        let oversized: Bool
    }

    let limit: Int
    private var head: HTTPRequestHead?
    private var body: ByteBuffer?
    private var oversized = false

    init(limit: Int) {
        self.limit = limit
    }

    /// Takes one part; the request once its end has been read.
    mutating func collect(_ part: HTTPServerRequestPart, context: ChannelHandlerContext) -> Request? {
        switch part {
        case .head(let head):
            self.head = head
            body = nil
            oversized = false
            if head.headers[canonicalForm: "expect"].contains(where: { $0.lowercased() == "100-continue" }) {
                var interim = context.channel.allocator.buffer(capacity: 32)
                interim.writeString("HTTP/\(head.version.major).\(head.version.minor) 100 Continue\r\n\r\n")
                context.writeAndFlush(NIOAny(interim), promise: nil)
            }
            return nil
        case .body(var chunk):
            guard !oversized else { return nil }
            if (body?.readableBytes ?? 0) + chunk.readableBytes > limit {
                oversized = true
                body = nil
            } else if body == nil {
                body = chunk
            } else {
                body!.writeBuffer(&chunk)
            }
            return nil
        case .end:
            guard let head else { return nil }
            defer {
                self.head = nil
                body = nil
            }
            return Request(head: head, body: body ?? ByteBuffer(), oversized: oversized)
        }
    }
}
