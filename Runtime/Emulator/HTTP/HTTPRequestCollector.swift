import NIOCore
import NIOHTTP1

/// Reads the parts NIO's request decoder hands over into whole requests, for both of the
/// emulator's servers (the local API and each Runtime API): the body kept up to `limit` bytes,
/// and past it read to its end without being kept, so the answer can be a 413 on a connection
/// still in step; `Expect: 100-continue` answered at once, or, behind an answer still due on the
/// connection, once that answer is out (`continueIfOwed`).
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
    /// The request being read expects `100 Continue`, which waits for the answer ahead of it.
    private var owesContinue = false

    init(limit: Int) {
        self.limit = limit
    }

    /// Takes one part; the request once its end has been read. `answerAhead`: an answer to an
    /// earlier request on the connection is still due, so an interim `100 Continue` must wait.
    mutating func collect(
        _ part: HTTPServerRequestPart, context: ChannelHandlerContext, answerAhead: Bool = false
    ) -> Request? {
        switch part {
        case .head(let head):
            self.head = head
            body = nil
            oversized = false
            owesContinue = false
            // An HTTP/1.0 client's expectation is ignored (RFC 9110 §10.1.1): it may not know 1xx.
            if (head.version.major, head.version.minor) >= (1, 1),
                head.headers[canonicalForm: "expect"].contains(where: { $0.lowercased() == "100-continue" })
            {
                if answerAhead {
                    owesContinue = true
                } else {
                    Self.writeContinue(head, context: context)
                }
            }
            return nil
        case .body(var chunk):
            // A client that sends its body without waiting needs no interim answer (RFC 9110 §10.1.1).
            owesContinue = false
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
            owesContinue = false
            guard let head else { return nil }
            defer {
                self.head = nil
                body = nil
            }
            return Request(head: head, body: body ?? ByteBuffer(), oversized: oversized)
        }
    }

    /// Sends the `100 Continue` the request being read was owed, now that the answers ahead of it
    /// are out.
    mutating func continueIfOwed(context: ChannelHandlerContext) {
        guard owesContinue, let head else { return }
        owesContinue = false
        Self.writeContinue(head, context: context)
    }

    private static func writeContinue(_ head: HTTPRequestHead, context: ChannelHandlerContext) {
        var interim = context.channel.allocator.buffer(capacity: 32)
        interim.writeString("HTTP/\(head.version.major).\(head.version.minor) 100 Continue\r\n\r\n")
        context.writeAndFlush(NIOAny(interim), promise: nil)
    }
}
