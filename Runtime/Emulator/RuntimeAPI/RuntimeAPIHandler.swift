import Foundation
import LambdaRuntime
import NIOCore
import NIOHTTP1

/// One Runtime API connection: routes each request to the session and writes its answer.
///
/// Runs on the connection's event loop, behind only NIO's request decoder: answers are written
/// as bytes, in one buffer each, since every event passes through here twice and NIO's response
/// encoder, header validator and pipelining handler cost a tenth of start-api's CPU per request.
/// What the pipelining handler did is done here: a request that arrives while a `/next` is
/// parked waits for that `/next` to be answered, so answers keep their order.
///
/// A `/next` with no event yet is parked in the session; the event is written from whichever
/// thread queues it, hopping to the event loop first. A body over the payload limit is read to
/// its end without being kept, so the connection stays usable for the 413. A request that is
/// not HTTP gets a 400 and the connection closes.
final class RuntimeAPIHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = ByteBuffer

    private enum Route {
        case next
        case response(requestID: String)
        case error(requestID: String)
        case initError
        case unknown
    }

    private typealias Request = HTTPRequestCollector.Request

    private let session: RuntimeSession
    private var collector = HTTPRequestCollector(limit: PayloadLimits.synchronousPayloadBytes)
    /// The id of this connection's parked `/next`, withdrawn if the connection closes first.
    private var parked: Int?
    /// Requests read while a `/next` was parked, oldest first.
    private var waiting: [Request] = []
    private var closing = false

    init(session: RuntimeSession) {
        self.session = session
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let answerAhead = answerIsDue
        guard let request = collector.collect(unwrapInboundIn(data), context: context, answerAhead: answerAhead)
        else { return }
        if answerAhead {
            waiting.append(request)
        } else {
            respond(to: request, context: context)
        }
    }

    /// Not HTTP: 400, then the connection closes, as NIO's server error handler would do it.
    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard error is HTTPParserError, !closing else {
            context.close(promise: nil)
            return
        }
        closing = true
        waiting.removeAll()
        HTTPAnswerWriter.refuseMalformed(context: context)
    }

    /// Answers the requests that waited behind a parked `/next`, until one parks again; then the
    /// `100 Continue` a request still being read is owed, if none is due ahead of it.
    private func answerWaiting(context: ChannelHandlerContext) {
        while parked == nil, !waiting.isEmpty, !closing {
            respond(to: waiting.removeFirst(), context: context)
        }
        if !answerIsDue, !closing { collector.continueIfOwed(context: context) }
    }

    /// An answer is still due on the connection: a parked `/next`, or requests waiting behind it.
    private var answerIsDue: Bool { parked != nil || !waiting.isEmpty }

    func channelInactive(context: ChannelHandlerContext) {
        if let parked { session.withdrawNext(parked) }
        parked = nil
        context.fireChannelInactive()
    }

    private func respond(to request: Request, context: ChannelHandlerContext) {
        let head = request.head
        let body = request.body
        let oversized = request.oversized
        let errorType = head.headers.first(name: "Lambda-Runtime-Function-Error-Type")
        switch (head.method, Self.route(head.uri)) {
        case (.GET, .next):
            let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
            let eventLoop = context.eventLoop
            parked = session.next { event in
                if eventLoop.inEventLoop {
                    let (handler, context) = loopBound.value
                    handler.deliver(event, for: head, context: context)
                } else {
                    eventLoop.execute {
                        let (handler, context) = loopBound.value
                        handler.deliver(event, for: head, context: context)
                    }
                }
            }
        case (.POST, .response(let requestID)):
            write(
                oversized
                    ? session.postOversizedResponse(requestID: requestID)
                    : session.postResponse(requestID: requestID, body: body),
                for: head, context: context)
        case (.POST, .error(let requestID)):
            write(
                oversized
                    ? .payloadTooLarge
                    : session.postError(requestID: requestID, body: body, errorTypeHeader: errorType),
                for: head, context: context)
        case (.POST, .initError):
            write(
                oversized ? .payloadTooLarge : session.postInitError(body: body, errorTypeHeader: errorType),
                for: head, context: context)
        case (_, .unknown):
            write(.error(404, "NotFound", "No such Runtime API resource: \(head.uri)"), for: head, context: context)
        default:
            write(
                .error(405, "MethodNotAllowed", "\(head.method) is not allowed on \(head.uri)"), for: head,
                context: context)
        }
    }

    private func deliver(_ event: RuntimeSession.NextEvent, for head: HTTPRequestHead, context: ChannelHandlerContext) {
        parked = nil
        switch event {
        case .event(let invocation):
            var headers = HTTPHeaders()
            headers.reserveCapacity(8)
            headers.add(name: "Content-Type", value: "application/json")
            headers.add(name: "Content-Length", value: String(invocation.payload.readableBytes))
            headers.add(name: "Lambda-Runtime-Aws-Request-Id", value: invocation.requestID)
            let deadline = Date().timeIntervalSince1970 + invocation.timeout.seconds
            headers.add(name: "Lambda-Runtime-Deadline-Ms", value: String(Int64(deadline * 1000)))
            headers.add(name: "Lambda-Runtime-Invoked-Function-Arn", value: invocation.invokedFunctionARN)
            if let traceID = invocation.traceID { headers.add(name: "Lambda-Runtime-Trace-Id", value: traceID) }
            if let clientContext = invocation.clientContext {
                headers.add(name: "Lambda-Runtime-Client-Context", value: clientContext)
            }
            if let cognitoIdentity = invocation.cognitoIdentity {
                headers.add(name: "Lambda-Runtime-Cognito-Identity", value: cognitoIdentity)
            }
            write(status: .ok, headers: headers, body: invocation.payload, for: head, context: context)
        case .refused:
            write(.invalidStateTransition("the current invocation has no result yet"), for: head, context: context)
        case .alreadyWaiting:
            write(.nextAlreadyWaiting, for: head, context: context)
        case .ended:
            write(.shuttingDown, for: head, context: context)
        }
        answerWaiting(context: context)
    }

    private func write(_ reply: RuntimeAPIReply, for head: HTTPRequestHead, context: ChannelHandlerContext) {
        let body = ByteBuffer(string: reply.body)
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: "application/json")
        headers.add(name: "Content-Length", value: String(body.readableBytes))
        write(status: .init(statusCode: reply.status), headers: headers, body: body, for: head, context: context)
    }

    private func write(
        status: HTTPResponseStatus, headers: HTTPHeaders, body: ByteBuffer, for head: HTTPRequestHead,
        context: ChannelHandlerContext
    ) {
        guard !closing else { return }
        if !head.isKeepAlive { closing = true }
        HTTPAnswerWriter.write(
            status: status, version: head.version, body: body.readableBytesView, keepAlive: head.isKeepAlive,
            context: context
        ) { lines in
            for (name, value) in headers { lines.add(name, value) }
        }
    }

    /// The resource a request path names, as the 2018-06-01 API lays them out. Compared as
    /// UTF-8 bytes: this runs twice per event.
    private static func route(_ uri: String) -> Route {
        var path = Substring(uri)
        if let query = path.utf8.firstIndex(of: UInt8(ascii: "?")) { path = path[..<query] }
        guard path.utf8.starts(with: prefixSlash.utf8) else { return .unknown }
        let rest = path.utf8.dropFirst(prefixSlash.utf8.count)
        let parts = rest.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
        func part(_ index: Int) -> Substring { Substring(parts[index]) }
        switch parts.count {
        case 2 where part(0) == "invocation" && part(1) == "next": return .next
        case 2 where part(0) == "init" && part(1) == "error": return .initError
        case 3 where part(0) == "invocation" && !parts[1].isEmpty:
            let raw = String(part(1))
            let requestID = raw.utf8.contains(UInt8(ascii: "%")) ? (raw.removingPercentEncoding ?? raw) : raw
            switch part(2) {
            case "response": return .response(requestID: requestID)
            case "error": return .error(requestID: requestID)
            default: return .unknown
            }
        default: return .unknown
        }
    }

    private static let prefixSlash = RuntimeAPIServer.prefix + "/"
}
