import NIOCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// One HTTP/1.1 keep-alive connection to the Lambda Runtime API, with blocking socket calls.
///
/// The runtime loop is strictly one request, then its whole response, then the next request;
/// nothing else shares the connection, and `/next` waits as long as it takes. So the calls block
/// the loop's own thread (`RuntimeThreadExecutor`, never a thread of Swift's shared pool)
/// instead of going through an event loop: that was two thread hops and an async stream per
/// call, measured at about a third of a warm invocation's CPU time under start-api.
///
/// Linux only (SOCK_CLOEXEC, MSG_NOSIGNAL), as Lambda and the emulator are.
///
/// If the server closes the connection between requests (`Connection: close`, or an end of
/// stream on a response delimited by it), the next request opens a new one.
final class RuntimeAPIClient {
    /// A full response from the Runtime API.
    struct Response {
        var status: Int
        /// Its head's bytes, where each header's name and value are read from when asked for.
        let head: [UInt8]
        /// Where each header line's name and value (without surrounding blanks) are in `head`.
        let fields: [HeaderField]
        var body: ByteBuffer

        /// The first value of the header `name`, compared case-insensitively. Only the values
        /// asked for become strings: making one of every name and value of each answer cost
        /// more, in allocations and their release, than the lookups.
        func header(_ name: String) -> String? {
            var wanted = name
            return wanted.withUTF8 { wanted in
                head.withUnsafeBufferPointer { head in
                    for field in fields where Self.sameIgnoringCase(head[field.name], wanted) {
                        return String(decoding: head[field.value], as: UTF8.self)
                    }
                    return nil
                }
            }
        }

        /// ASCII case-insensitive equality, by length first and then byte by byte: the runtime
        /// looks up six headers of each `/next` answer, and comparing through `zip` of two UTF-8
        /// views cost more than the rest of building the context.
        private static func sameIgnoringCase(
            _ name: Slice<UnsafeBufferPointer<UInt8>>, _ wanted: UnsafeBufferPointer<UInt8>
        ) -> Bool {
            guard name.count == wanted.count else { return false }
            var index = name.startIndex
            for byte in wanted {
                guard RuntimeAPIClient.lower(name[index]) == RuntimeAPIClient.lower(byte) else { return false }
                index += 1
            }
            return true
        }
    }

    /// Where one header line's name and value are in a response's head.
    struct HeaderField {
        let name: Range<Int>
        let value: Range<Int>
    }

    /// The largest body accepted: an event is at most 6 MiB, and anything near this is a broken server.
    static let maximumBodyBytes = 16 * 1024 * 1024
    private static let maximumHeadBytes = 64 * 1024

    private let endpoint: RuntimeAPIEndpoint
    private var descriptor: Int32 = -1
    /// Bytes read past the end of the last response (none, unless the server pipelines).
    private var buffer = ByteBuffer()

    init(endpoint: RuntimeAPIEndpoint) {
        self.endpoint = endpoint
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
    }

    /// Sends one request and reads its whole response.
    func send(
        _ method: String, _ path: String, headers extraHeaders: [(String, String)] = [], body: ByteBuffer? = nil
    ) throws -> Response {
        if descriptor < 0 { try connect() }
        var head =
            "\(method) \(path) HTTP/1.1\r\nHost: \(endpoint.hostHeader)\r\nUser-Agent: gatehouse-lambda-runtime\r\n"
        if method != "GET" { head += "Content-Length: \(body?.readableBytes ?? 0)\r\n" }
        for (name, value) in extraHeaders { head += "\(name): \(value)\r\n" }
        head += "\r\n"
        do {
            try write(head, body)
            return try readResponse(method: method)
        } catch {
            disconnect()
            throw error
        }
    }

    // MARK: Connection

    private func connect() throws {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(endpoint.host, String(endpoint.port), &hints, &list)
        guard status == 0, let first = list else {
            throw RuntimeAPIClientError.cannotConnect(endpoint.hostHeader, String(cString: gai_strerror(status)))
        }
        defer { freeaddrinfo(list) }
        var failure = ECONNREFUSED
        var candidate: UnsafeMutablePointer<addrinfo>? = first
        while let address = candidate {
            candidate = address.pointee.ai_next
            let socketType = address.pointee.ai_socktype | Int32(SOCK_CLOEXEC.rawValue)
            let fd = socket(address.pointee.ai_family, socketType, address.pointee.ai_protocol)
            guard fd >= 0 else {
                failure = errno
                continue
            }
            var result: Int32
            repeat {
                result = systemConnect(fd, address.pointee.ai_addr, address.pointee.ai_addrlen)
            } while result < 0
                && errno == EINTR
            guard result == 0 else {
                failure = errno
                close(fd)
                continue
            }
            var on: Int32 = 1
            setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
            descriptor = fd
            buffer.clear()
            return
        }
        throw RuntimeAPIClientError.cannotConnect(endpoint.hostHeader, String(cString: strerror(failure)))
    }

    private func disconnect() {
        if descriptor >= 0 { close(descriptor) }
        descriptor = -1
        buffer.clear()
    }

    // MARK: Writing

    /// Writes the head and the body in one `sendmsg` where the kernel takes it all; never raises
    /// SIGPIPE on a closed connection.
    private func write(_ head: String, _ body: ByteBuffer?) throws {
        var head = head
        try head.withUTF8 { headBytes in
            try (body ?? ByteBuffer()).withUnsafeReadableBytes { bodyBytes in
                var parts = [UnsafeRawBufferPointer(headBytes), bodyBytes].filter { !$0.isEmpty }
                while !parts.isEmpty {
                    var vectors = parts.map {
                        iovec(iov_base: UnsafeMutableRawPointer(mutating: $0.baseAddress), iov_len: $0.count)
                    }
                    let sent = vectors.withUnsafeMutableBufferPointer { vectors -> Int in
                        var message = msghdr()
                        message.msg_iov = vectors.baseAddress
                        message.msg_iovlen = vectors.count
                        return sendmsg(descriptor, &message, Int32(MSG_NOSIGNAL))
                    }
                    if sent < 0 {
                        if errno == EINTR { continue }
                        throw RuntimeAPIClientError.io("send", errno)
                    }
                    var remaining = sent
                    while let part = parts.first, remaining >= part.count {
                        remaining -= part.count
                        parts.removeFirst()
                    }
                    if remaining > 0 { parts[0] = UnsafeRawBufferPointer(rebasing: parts[0][remaining...]) }
                }
            }
        }
    }

    // MARK: Reading

    private func readResponse(method: String) throws -> Response {
        let headEnd = try readUntilHeadEnd()
        let head = buffer.readBytes(length: headEnd)!
        buffer.moveReaderIndex(forwardBy: 4)  // the blank line
        let (status, fields) = try head.withUnsafeBufferPointer { try Self.parseHead(UnsafeRawBufferPointer($0)) }
        var response = Response(status: status, head: head, fields: fields, body: ByteBuffer())
        if (100..<200).contains(status) { return try readResponse(method: method) }  // 100 Continue and the like
        let closes = response.header("Connection")?.lowercased() == "close"
        if status == 204 || status == 304 || method == "HEAD" {
            // No body, whatever the headers say.
        } else if response.header("Transfer-Encoding")?.lowercased().contains("chunked") == true {
            response.body = try readChunkedBody()
        } else if let length = response.header("Content-Length") {
            guard let count = Int(Self.trimmed(length)), count >= 0, count <= Self.maximumBodyBytes else {
                throw RuntimeAPIClientError.malformedResponse("a Content-Length of \(length.prefix(40))")
            }
            response.body = try readBody(count: count)
        } else {
            response.body = try readToEnd()
            disconnect()
            return response
        }
        if closes { disconnect() }
        return response
    }

    /// The status and where the headers are in a response head (without its final blank line),
    /// parsed as bytes: the status line, then `name: value` lines, values without surrounding
    /// blanks.
    private static func parseHead(_ head: UnsafeRawBufferPointer) throws(RuntimeAPIClientError) -> (Int, [HeaderField])
    {
        // One pass, line by line, into ranges: no array of lines first, no string made.
        let statusEnd = lineEnd(in: head, from: 0)
        let status = try statusCode(UnsafeRawBufferPointer(rebasing: head[..<statusEnd]))
        var headers: [HeaderField] = []
        headers.reserveCapacity(12)
        var start = statusEnd + 2
        while start < head.count {
            let end = lineEnd(in: head, from: start)
            if end > start { headers.append(try field(in: head, line: start..<end)) }
            start = end + 2
        }
        return (status, headers)
    }

    /// Where the line that starts at `start` ends: at its CR LF, or at the end of `head`.
    private static func lineEnd(in head: UnsafeRawBufferPointer, from start: Int) -> Int {
        find(lineBreak, in: UnsafeRawBufferPointer(rebasing: head[start...])).map { start + $0 } ?? head.count
    }

    private static let lineBreak: [UInt8] = [13, 10]

    private static let statusPrefix = Array("HTTP/1.".utf8)

    /// The code of a status line: "HTTP/1.x NNN" at least, the code's three digits followed by
    /// a space or the end.
    private static func statusCode(_ line: UnsafeRawBufferPointer) throws(RuntimeAPIClientError) -> Int {
        guard line.count >= 12, line.starts(with: statusPrefix), line[8] == 32, line.count == 12 || line[12] == 32
        else {
            throw RuntimeAPIClientError.malformedResponse(
                "a status line of \(String(decoding: line.prefix(80), as: UTF8.self))")
        }
        var status = 0
        for digit in line[9..<12] {
            guard (48...57).contains(digit) else {
                throw RuntimeAPIClientError.malformedResponse("a status code that is not a number")
            }
            status = status * 10 + Int(digit - 48)
        }
        return status
    }

    /// Where a `name: value` line's name and value are, the value without surrounding blanks.
    private static func field(
        in head: UnsafeRawBufferPointer, line: Range<Int>
    ) throws(RuntimeAPIClientError) -> HeaderField {
        guard let colon = head[line].firstIndex(of: 58) else {
            throw RuntimeAPIClientError.malformedResponse("a header line without a colon")
        }
        var valueStart = colon + 1
        var valueEnd = line.upperBound
        while valueStart < valueEnd, head[valueStart] == 32 || head[valueStart] == 9 { valueStart += 1 }
        while valueEnd > valueStart, head[valueEnd - 1] == 32 || head[valueEnd - 1] == 9 { valueEnd -= 1 }
        return HeaderField(name: line.lowerBound..<colon, value: valueStart..<valueEnd)
    }

    /// ASCII lower case of a byte.
    static func lower(_ byte: UInt8) -> UInt8 {
        (65...90).contains(byte) ? byte + 32 : byte
    }

    /// Fills the buffer until it holds a whole head; returns its length up to its `\r\n\r\n`.
    private func readUntilHeadEnd() throws -> Int {
        while true {
            if let end = Self.find([13, 10, 13, 10], in: buffer) { return end }
            guard buffer.readableBytes <= Self.maximumHeadBytes else {
                throw RuntimeAPIClientError.malformedResponse("a head over \(Self.maximumHeadBytes) bytes")
            }
            guard try fill() else { throw RuntimeAPIClientError.connectionClosed }
        }
    }

    /// Where `pattern` starts among the readable bytes of `buffer`, from its reader index.
    /// A plain loop: the standard library's `firstRange(of:)` runs unspecialised here, and
    /// looking up its generic metadata cost more than the search.
    private static func find(_ pattern: [UInt8], in buffer: ByteBuffer) -> Int? {
        buffer.withUnsafeReadableBytes { find(pattern, in: $0) }
    }

    /// Where `pattern` starts in `bytes`.
    private static func find(_ pattern: [UInt8], in bytes: UnsafeRawBufferPointer) -> Int? {
        var index = 0
        search: while index + pattern.count <= bytes.count {
            for offset in pattern.indices where bytes[index + offset] != pattern[offset] {
                index += 1
                continue search
            }
            return index
        }
        return nil
    }

    private func readBody(count: Int) throws -> ByteBuffer {
        while buffer.readableBytes < count {
            guard try fill(wanting: count - buffer.readableBytes) else { throw RuntimeAPIClientError.connectionClosed }
        }
        return buffer.readSlice(length: count)!
    }

    private func readChunkedBody() throws -> ByteBuffer {
        var body = ByteBuffer()
        while true {
            let line = try readLine()
            let sizeText = line.split(separator: ";", maxSplits: 1).first.map(String.init) ?? ""
            guard let size = Int(Self.trimmed(sizeText), radix: 16), size >= 0,
                body.readableBytes + size <= Self.maximumBodyBytes
            else {
                throw RuntimeAPIClientError.malformedResponse("a chunk size of \(line.prefix(40))")
            }
            if size == 0 {
                while try !readLine().isEmpty {}  // trailers, up to the empty line
                return body
            }
            var chunk = try readBody(count: size)
            body.writeBuffer(&chunk)
            guard try readLine().isEmpty else {
                throw RuntimeAPIClientError.malformedResponse("a chunk without its CRLF")
            }
        }
    }

    private func readLine() throws -> String {
        while true {
            if let end = Self.find([13, 10], in: buffer) {
                let line = buffer.readString(length: end)!
                buffer.moveReaderIndex(forwardBy: 2)
                return line
            }
            guard buffer.readableBytes <= Self.maximumHeadBytes, try fill() else {
                throw RuntimeAPIClientError.connectionClosed
            }
        }
    }

    private func readToEnd() throws -> ByteBuffer {
        while try fill() {
            guard buffer.readableBytes <= Self.maximumBodyBytes else {
                throw RuntimeAPIClientError.malformedResponse("a body over \(Self.maximumBodyBytes) bytes")
            }
        }
        defer { buffer.clear() }
        return buffer.readSlice(length: buffer.readableBytes)!
    }

    /// `text` without the spaces and tabs around it.
    private static func trimmed(_ text: some StringProtocol) -> String {
        var slice = Substring(text)
        while slice.first == " " || slice.first == "\t" { slice.removeFirst() }
        while slice.last == " " || slice.last == "\t" { slice.removeLast() }
        return String(slice)
    }

    /// Reads what is available (blocking until something is) onto the buffer; false at the end
    /// of the stream.
    private func fill(wanting wanted: Int = 0) throws -> Bool {
        if buffer.readableBytes == 0 { buffer.clear() }
        let size = max(64 * 1024, min(wanted, Self.maximumBodyBytes))
        let descriptor = self.descriptor
        var failure: Int32 = 0
        let count = buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: size) { bytes -> Int in
            while true {
                let count = recv(descriptor, bytes.baseAddress!, bytes.count, 0)
                if count >= 0 { return count }
                if errno != EINTR {
                    failure = errno
                    return 0
                }
            }
        }
        if failure != 0 { throw RuntimeAPIClientError.io("recv", failure) }
        return count > 0
    }
}

/// `connect(2)`, out of the way of `RuntimeAPIClient.connect`.
private func systemConnect(_ fd: Int32, _ address: UnsafePointer<sockaddr>!, _ length: socklen_t) -> Int32 {
    connect(fd, address, length)
}

/// Why a call to the Runtime API failed at the transport level.
enum RuntimeAPIClientError: Error, CustomStringConvertible {
    case cannotConnect(String, String)
    case io(String, Int32)
    case connectionClosed
    case malformedResponse(String)

    var description: String {
        switch self {
        case .cannotConnect(let address, let reason): "cannot connect to the Runtime API at \(address): \(reason)"
        case .io(let call, let code): "\(call) on the Runtime API connection failed: \(String(cString: strerror(code)))"
        case .connectionClosed: "the Runtime API closed the connection"
        case .malformedResponse(let what): "the Runtime API sent \(what)"
        }
    }
}
