import NIOCore
import NIOHTTP1

/// How the emulator's servers (the local API and each Runtime API) put an answer on the wire:
/// as bytes, in one buffer, with nothing of NIO's response pipeline in between.
enum HTTPAnswerWriter {
    /// The header lines of an answer being written, straight into its buffer.
    struct HeaderLines {
        fileprivate var buffer: ByteBuffer

        mutating func add(_ name: String, _ value: String) {
            buffer.writeString(name)
            buffer.writeStaticString(": ")
            buffer.writeString(value)
            buffer.writeStaticString("\r\n")
        }
    }

    /// Writes the status line, the header lines `headers` adds, `Connection: close` when the
    /// connection is not kept, and `body`, then closes the connection after it unless `keepAlive`
    /// or `lingering` (the caller closes it later, once the client has stopped sending).
    static func write(
        status: HTTPResponseStatus, version: HTTPVersion, body: some Collection<UInt8>, keepAlive: Bool,
        lingering: Bool = false, context: ChannelHandlerContext, headers: (inout HeaderLines) -> Void
    ) {
        var lines = HeaderLines(buffer: context.channel.allocator.buffer(capacity: 256 + body.count))
        lines.buffer.writeString("HTTP/\(version.major).\(version.minor) \(status.code) \(status.reasonPhrase)\r\n")
        headers(&lines)
        if !keepAlive { lines.buffer.writeStaticString("Connection: close\r\n") }
        lines.buffer.writeStaticString("\r\n")
        lines.buffer.writeBytes(body)
        let written = context.writeAndFlush(NIOAny(lines.buffer))
        if !keepAlive, !lingering {
            let channel = context.channel
            written.whenComplete { _ in channel.close(promise: nil) }
        }
    }

    /// Answers bytes that are not HTTP with a 400 and closes the connection, as NIO's server
    /// error handler does.
    static func refuseMalformed(context: ChannelHandlerContext) {
        refuse(.badRequest, context: context)
    }

    /// Answers `status` with no body and closes the connection: for requests not worth reading on.
    static func refuse(_ status: HTTPResponseStatus, context: ChannelHandlerContext) {
        write(status: status, version: .http1_1, body: [], keepAlive: false, context: context) { lines in
            lines.add("Content-Length", "0")
        }
    }
}
