import NIOCore
import NIOHTTP1
import Synchronization

/// One connection to the local API: collects each request, hands it to the gateway on a task of
/// its own, and writes the answer back on the connection's event loop, as bytes.
///
/// Only NIO's request decoder stands in front of it; the rest of NIO's server pipeline (error
/// handler, header validator, pipelining handler, response encoder) cost more per request than
/// writing the answer here. What the pipelining handler did is done here too: while a request
/// is being answered, later ones wait their turn and the socket is not read further, so answers
/// keep their order and a client cannot queue work without bound. A body over the limit is read
/// to its end without being kept, and answered 413 with the connection still usable; a request
/// that declares such a body, or whose request line and headers are over their limit, is
/// answered 413 or 431 at once, what the client still sends is dropped unkept (for
/// `lingerTime` at most) and the connection closes; bytes that are not
/// HTTP get a 400 and the connection closes. A connection that does not send a whole request
/// within the request timeout (from its opening, or from the previous answer) is closed.
final class APIRequestHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private typealias Request = HTTPRequestCollector.Request

    private let gateway: APIListener.Gateway
    private let limits: APIEdgeLimits
    private var collector: HTTPRequestCollector
    /// Closes the connection unless a whole request arrives first; set while one is awaited.
    private var timeout: Scheduled<Void>?
    /// A request is with the gateway; its answer is not written yet.
    private var answering = false
    /// Requests read while another was being answered, oldest first.
    private var waiting: [Request] = []
    /// A read was asked for while answering; it is passed on once the answers are out.
    private var readHeld = false
    private var closing = false
    /// A request was refused on its head: what the client still sends is read and dropped
    /// until its end (or the linger time), then the connection closes. Closing at once would
    /// reset it under a client still writing its body, which would then never see the answer.
    private var lingering = false
    /// How long a refused request's body is read and dropped at most.
    static let lingerTime: TimeAmount = .seconds(2)

    init(gateway: APIListener.Gateway, limits: APIEdgeLimits) {
        self.gateway = gateway
        self.limits = limits
        collector = HTTPRequestCollector(limit: limits.maximumBodyBytes)
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { awaitRequest(context: context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        awaitRequest(context: context)
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let part = unwrapInboundIn(data)
        if lingering {
            if case .end = part { context.close(promise: nil) }
            return
        }
        if case .head(let head) = part, !closing, let refusal = refusal(of: head) {
            return refuse(refusal, for: head, context: context)
        }
        guard !closing, let request = collector.collect(part, context: context, answerAhead: answering) else { return }
        timeout?.cancel()
        timeout = nil
        if answering {
            waiting.append(request)
        } else {
            respond(to: request, context: context)
        }
    }

    /// Holds socket reads back while an answer is due.
    func read(context: ChannelHandlerContext) {
        if answering {
            readHeld = true
        } else {
            context.read()
        }
    }

    /// Not HTTP: 400 and close, unless an answer is due; then the connection closes after it.
    /// Headers past the decoder's limit are 431.
    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard let parserError = error as? HTTPParserError, !closing else {
            context.close(promise: nil)
            return
        }
        closing = true
        waiting.removeAll()
        guard !answering else { return }
        if parserError == .headerOverflow {
            HTTPAnswerWriter.refuse(
                .init(statusCode: 431, reasonPhrase: "Request Header Fields Too Large"), context: context)
        } else {
            HTTPAnswerWriter.refuseMalformed(context: context)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        closing = true
        waiting.removeAll()
        timeout?.cancel()
        timeout = nil
        context.fireChannelInactive()
    }

    /// Starts the wait for a whole request, unless one is already timed.
    private func awaitRequest(context: ChannelHandlerContext) {
        guard timeout == nil, !closing else { return }
        let channel = context.channel
        timeout = context.eventLoop.scheduleTask(in: TimeAmount(limits.requestTimeout)) {
            channel.close(promise: nil)
        }
    }

    /// The answer to a request refused on its head alone: a declared body over the limit (413),
    /// or a request line and headers over theirs (431).
    private func refusal(of head: HTTPRequestHead) -> APIResponse? {
        if let declared = head.headers.first(name: "content-length").flatMap(Int.init),
            declared > limits.maximumBodyBytes
        {
            return .Gateway.tooLarge(.httpAPI)
        }
        var bytes = head.method.rawValue.utf8.count + head.uri.utf8.count + 12
        for (name, value) in head.headers { bytes += name.utf8.count + value.utf8.count + 4 }
        return bytes > limits.maximumHeadBytes ? .message(431, "Request Header Fields Too Large") : nil
    }

    /// Answers `refusal` at once, without reading the rest of the request, and closes the
    /// connection once the client has sent it (dropped unread) or after the linger time; if an
    /// earlier request's answer is due, the connection closes after it instead.
    private func refuse(_ refusal: APIResponse, for head: HTTPRequestHead, context: ChannelHandlerContext) {
        closing = true
        waiting.removeAll()
        timeout?.cancel()
        timeout = nil
        guard !answering else { return }
        lingering = true
        write(refusal, for: head, context: context)
        let channel = context.channel
        timeout = context.eventLoop.scheduleTask(in: Self.lingerTime) { channel.close(promise: nil) }
    }

    private func respond(to request: Request, context: ChannelHandlerContext) {
        guard !request.oversized else {
            return write(.Gateway.tooLarge(.httpAPI), for: request.head, context: context)
        }
        guard let gateway = gateway.current.withLock({ $0 }) else {
            return write(.message(503, "Service Unavailable"), for: request.head, context: context)
        }
        answering = true
        let head = request.head
        let apiRequest = Self.request(head, body: request.body, source: context.channel.remoteAddress)
        let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        let eventLoop = context.eventLoop
        // On the emulator's loop, where this connection lives: the answer is written with no hop.
        Task(executorPreference: EmulatorLoop.executor) {
            let answer = await gateway.handle(apiRequest)
            let write: @Sendable () -> Void = {
                let (handler, context) = loopBound.value
                handler.write(answer, for: head, context: context)
            }
            if eventLoop.inEventLoop { write() } else { eventLoop.execute(write) }
        }
    }

    /// The gateway's view of a request: the path and query as sent, every header line in order.
    private static func request(_ head: HTTPRequestHead, body: ByteBuffer, source: SocketAddress?) -> APIRequest {
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
            body: Array(body.readableBytesView), sourceIP: source?.ipAddress ?? "127.0.0.1",
            httpProtocol: "HTTP/\(head.version.major).\(head.version.minor)")
    }

    /// Header lines that frame the message on this connection: ours to set, whatever the function
    /// answered, or the client would misread the stream.
    private static let framing: Set<String> = ["content-length", "transfer-encoding", "connection"]

    /// Writes `answer` as one buffer, then answers the next waiting request or lets reads go on.
    private func write(_ answer: APIResponse, for request: HTTPRequestHead, context: ChannelHandlerContext) {
        answering = false
        let keepAlive = request.isKeepAlive && !closing
        // 1xx, 204 and 304 answers carry no body, whatever the function said.
        let bodyless = answer.status < 200 || answer.status == 204 || answer.status == 304
        let sendsBody = !bodyless && request.method != .HEAD && !answer.body.isEmpty
        HTTPAnswerWriter.write(
            status: HTTPResponseStatus(statusCode: answer.status), version: request.version,
            body: sendsBody ? answer.body[...] : [], keepAlive: keepAlive, lingering: lingering, context: context
        ) { lines in
            for line in answer.headers where !Self.framing.contains(line.name.lowercased()) {
                // The gateway checks what functions answer; this keeps anything else off the wire too.
                guard HeaderField.isValidName(line.name), HeaderField.isValidValue(line.value) else { continue }
                lines.add(line.name, line.value)
            }
            // A HEAD answer says how long the body would be, and sends none.
            if !bodyless { lines.add("Content-Length", String(answer.body.count)) }
            lines.add("Date", HTTPDate.now())
        }
        guard keepAlive else {
            closing = true
            waiting.removeAll()
            return
        }
        if !waiting.isEmpty {
            respond(to: waiting.removeFirst(), context: context)
            return
        }
        collector.continueIfOwed(context: context)
        awaitRequest(context: context)
        if readHeld {
            readHeld = false
            context.read()
        }
    }
}
