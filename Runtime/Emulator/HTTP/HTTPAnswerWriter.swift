import NIOCore
import NIOHTTP1

/// How the emulator's servers (the local API and each Runtime API) put an answer on the wire:
/// as bytes, in one buffer, with nothing of NIO's response pipeline in between.
enum HTTPAnswerWriter {
    /// Writes the status line, `headers`, `Connection: close` when the connection is not kept,
    /// and `body`, then closes the connection after it unless `keepAlive`.
    static func write(
        status: HTTPResponseStatus, version: HTTPVersion, headers: some Sequence<(name: String, value: String)>,
        body: some Collection<UInt8>, keepAlive: Bool, context: ChannelHandlerContext
    ) {
        var buffer = context.channel.allocator.buffer(capacity: 256 + body.count)
        buffer.writeString("HTTP/\(version.major).\(version.minor) \(status.code) \(status.reasonPhrase)\r\n")
        for (name, value) in headers {
            buffer.writeString(name)
            buffer.writeStaticString(": ")
            buffer.writeString(value)
            buffer.writeStaticString("\r\n")
        }
        if !keepAlive { buffer.writeStaticString("Connection: close\r\n") }
        buffer.writeStaticString("\r\n")
        buffer.writeBytes(body)
        let written = context.writeAndFlush(NIOAny(buffer))
        if !keepAlive {
            let channel = context.channel
            written.whenComplete { _ in channel.close(promise: nil) }
        }
    }

    /// Answers bytes that are not HTTP with a 400 and closes the connection, as NIO's server
    /// error handler does.
    static func refuseMalformed(context: ChannelHandlerContext) {
        write(
            status: .badRequest, version: .http1_1, headers: [(name: "Content-Length", value: "0")], body: [],
            keepAlive: false, context: context)
    }
}
