import CCurl

/// Gathers one response from libcurl's write and header callbacks, and stops the transfer
/// when the body outgrows the cap.
final class ResponseCollector {
    let limit: Int
    var body: [UInt8] = []
    var headers: [(name: String, value: String)] = []
    /// The body went over `limit`; the transfer was stopped.
    var exceeded = false

    init(limit: Int) {
        self.limit = limit
    }

    /// A chunk of body; false stops the transfer.
    func append(body chunk: UnsafeRawBufferPointer) -> Bool {
        guard body.count + chunk.count <= limit else {
            exceeded = true
            return false
        }
        body.append(contentsOf: chunk)
        return true
    }

    /// One header line as libcurl hands it (CRLF included). A status line starts a new block, so
    /// only the final response's headers remain (not a 100 Continue's).
    func append(headerLine line: UnsafeRawBufferPointer) {
        var end = line.count
        while end > 0, line[end - 1] == 0x0A || line[end - 1] == 0x0D { end -= 1 }
        let text = String(decoding: UnsafeRawBufferPointer(rebasing: line[..<end]), as: UTF8.self)
        if text.hasPrefix("HTTP/") {
            headers.removeAll()
            return
        }
        guard let colon = text.firstIndex(of: ":") else { return }
        let name = text[..<colon].lowercased()
        let value = text[text.index(after: colon)...].drop { $0 == " " || $0 == "\t" }
        headers.append((name, String(value.reversed().drop { $0 == " " || $0 == "\t" }.reversed())))
    }

    /// The write callback: the collector is the context.
    static let writeCallback: gatehouse_curl_data_callback = { data, size, count, context in
        let collector = Unmanaged<ResponseCollector>.fromOpaque(context!).takeUnretainedValue()
        let chunk = UnsafeRawBufferPointer(start: data, count: size * count)
        return collector.append(body: chunk) ? size * count : 0
    }

    /// The header callback: the collector is the context.
    static let headerCallback: gatehouse_curl_data_callback = { data, size, count, context in
        let collector = Unmanaged<ResponseCollector>.fromOpaque(context!).takeUnretainedValue()
        collector.append(headerLine: UnsafeRawBufferPointer(start: data, count: size * count))
        return size * count
    }
}
