import CZlib

/// A zip file written the same way every time: entries sorted by path, every timestamp
/// 1980-01-01 00:00, Unix modes in the external attributes, deflated with zlib's level 6, no
/// extra fields. The same files give byte-identical archives.
public struct ZipArchive: Sendable {
    /// One file in the archive.
    public struct Entry: Sendable, Equatable {
        public let path: String
        public let data: [UInt8]
        /// Unix permission bits, e.g. 0o755 for `bootstrap`.
        public let mode: UInt16

        public init(path: String, data: [UInt8], mode: UInt16 = 0o644) {
            self.path = path
            self.data = data
            self.mode = mode
        }
    }

    public private(set) var entries: [Entry]

    public init(entries: [Entry]) {
        self.entries = entries
    }

    /// The archive's bytes.
    public func bytes() throws(ZipError) -> [UInt8] {
        var out: [UInt8] = []
        var central: [UInt8] = []
        for entry in entries.sorted(by: { $0.path < $1.path }) {
            let name = Array(entry.path.utf8)
            let compressed = try Self.deflate(entry.data)
            // Stored when deflating does not help (already compressed data, tiny files).
            let stored = compressed.count >= entry.data.count
            let body = stored ? entry.data : compressed
            let crc = Self.crc32(entry.data)
            guard out.count < Int(UInt32.max), body.count < Int(UInt32.max), entry.data.count < Int(UInt32.max) else {
                throw .tooLarge
            }
            let offset = UInt32(out.count)
            var header = Writer()
            header.u32(0x0403_4B50)
            header.u16(20)  // version needed: 2.0
            header.u16(0)  // flags
            header.u16(stored ? 0 : 8)
            header.u16(0)  // time 00:00:00
            header.u16(0x21)  // date 1980-01-01
            header.u32(crc)
            header.u32(UInt32(body.count))
            header.u32(UInt32(entry.data.count))
            header.u16(UInt16(name.count))
            header.u16(0)  // no extra field
            out += header.bytes + name + body

            var record = Writer()
            record.u32(0x0201_4B50)
            record.u16(0x031E)  // made by Unix, spec 3.0: the external attributes carry the mode
            record.u16(20)
            record.u16(0)
            record.u16(stored ? 0 : 8)
            record.u16(0)
            record.u16(0x21)
            record.u32(crc)
            record.u32(UInt32(body.count))
            record.u32(UInt32(entry.data.count))
            record.u16(UInt16(name.count))
            record.u16(0)  // extra
            record.u16(0)  // comment
            record.u16(0)  // disk
            record.u16(0)  // internal attributes
            record.u32((0o100000 | UInt32(entry.mode)) << 16)  // a regular file with its mode
            record.u32(offset)
            central += record.bytes + name
        }
        guard entries.count < Int(UInt16.max), out.count + central.count < Int(UInt32.max) else { throw .tooLarge }
        var end = Writer()
        end.u32(0x0605_4B50)
        end.u16(0)
        end.u16(0)
        end.u16(UInt16(entries.count))
        end.u16(UInt16(entries.count))
        end.u32(UInt32(central.count))
        end.u32(UInt32(out.count))
        end.u16(0)
        return out + central + end.bytes
    }

    /// Reads an archive (any zip of stored or deflated entries without zip64).
    public init(reading bytes: [UInt8]) throws(ZipError) {
        let reader = Reader(bytes: bytes)
        // The end record is in the last 64 KiB + 22 bytes; find its signature from the end.
        var endAt: Int?
        var at = bytes.count - 22
        while at >= max(0, bytes.count - 22 - 65_535) {
            if try reader.u32(at) == 0x0605_4B50 {
                endAt = at
                break
            }
            at -= 1
        }
        guard let endAt else { throw .notZip }
        let count = Int(try reader.u16(endAt + 10))
        var record = Int(try reader.u32(endAt + 16))
        var entries: [Entry] = []
        for _ in 0..<count {
            guard try reader.u32(record) == 0x0201_4B50 else { throw .malformed("central directory") }
            let method = try reader.u16(record + 10)
            let crc = try reader.u32(record + 16)
            let compressedSize = Int(try reader.u32(record + 20))
            let size = Int(try reader.u32(record + 24))
            let nameLength = Int(try reader.u16(record + 28))
            let extraLength = Int(try reader.u16(record + 30))
            let commentLength = Int(try reader.u16(record + 32))
            let external = try reader.u32(record + 38)
            let local = Int(try reader.u32(record + 42))
            let name = String(decoding: try reader.slice(record + 46, nameLength), as: UTF8.self)
            guard try reader.u32(local) == 0x0403_4B50 else { throw .malformed("local header of \(name)") }
            let dataAt = local + 30 + Int(try reader.u16(local + 26)) + Int(try reader.u16(local + 28))
            let body = try reader.slice(dataAt, compressedSize)
            let data: [UInt8]
            switch method {
            case 0: data = body
            case 8: data = try Self.inflate(body, size: size)
            default: throw .malformed("\(name) uses compression method \(method)")
            }
            guard data.count == size, Self.crc32(data) == crc else { throw .malformed("\(name) fails its CRC") }
            let mode = external >> 16 == 0 ? 0o644 : UInt16(truncatingIfNeeded: (external >> 16) & 0o7777)
            entries.append(Entry(path: name, data: data, mode: mode))
            record += 46 + nameLength + extraLength + commentLength
        }
        self.entries = entries
    }

    static func crc32(_ data: [UInt8]) -> UInt32 {
        data.withUnsafeBufferPointer { buffer in
            var crc: uLong = CZlib.crc32(0, nil, 0)
            var at = 0
            while at < buffer.count {
                let chunk = min(buffer.count - at, Int(UInt32.max))
                crc = CZlib.crc32(crc, buffer.baseAddress! + at, uInt(chunk))
                at += chunk
            }
            return UInt32(truncatingIfNeeded: crc)
        }
    }

    /// Raw deflate (no zlib header), level 6: level 9 took over three times as long for 1% less.
    static func deflate(_ data: [UInt8]) throws(ZipError) -> [UInt8] {
        var stream = z_stream()
        guard
            deflateInit2_(
                &stream, 6, Z_DEFLATED, -15, 9, Z_DEFAULT_STRATEGY, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
                == Z_OK
        else { throw .zlib("deflateInit2 failed") }
        defer { deflateEnd(&stream) }
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(data.count))) + 64)
        let status = finish(&stream, data, into: &output) { CZlib.deflate(&$0, Z_FINISH) }
        guard status == Z_STREAM_END else { throw .zlib("deflate did not finish (\(status))") }
        return Array(output[0..<Int(stream.total_out)])
    }

    /// Raw inflate of `data`, which must come to `size` bytes.
    static func inflate(_ data: [UInt8], size: Int) throws(ZipError) -> [UInt8] {
        var stream = z_stream()
        guard inflateInit2_(&stream, -15, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw .zlib("inflateInit2 failed")
        }
        defer { inflateEnd(&stream) }
        var output = [UInt8](repeating: 0, count: max(size, 1))
        let status = finish(&stream, data, into: &output) { CZlib.inflate(&$0, Z_FINISH) }
        guard status == Z_STREAM_END, Int(stream.total_out) == size else { throw .malformed("a deflated entry") }
        return Array(output[0..<size])
    }

    /// Points `stream` at all of `input` and `output`, and runs `step` once on it (a
    /// `Z_FINISH` deflate or inflate, which must consume everything in one go).
    private static func finish(
        _ stream: inout z_stream, _ input: [UInt8], into output: inout [UInt8], _ step: (inout z_stream) -> Int32
    ) -> Int32 {
        var input = input
        return input.withUnsafeMutableBufferPointer { source in
            output.withUnsafeMutableBufferPointer { target in
                stream.next_in = source.baseAddress
                stream.avail_in = uInt(source.count)
                stream.next_out = target.baseAddress
                stream.avail_out = uInt(target.count)
                return step(&stream)
            }
        }
    }

    private struct Writer {
        var bytes: [UInt8] = []
        mutating func u16(_ value: UInt16) { bytes += [UInt8(value & 0xFF), UInt8(value >> 8)] }
        mutating func u32(_ value: UInt32) { (0..<4).forEach { bytes.append(UInt8((value >> (8 * $0)) & 0xFF)) } }
    }

    private struct Reader {
        let bytes: [UInt8]

        func slice(_ at: Int, _ count: Int) throws(ZipError) -> [UInt8] {
            guard at >= 0, count >= 0, at <= bytes.count - count else { throw .malformed("truncated") }
            return Array(bytes[at..<at + count])
        }

        func u16(_ at: Int) throws(ZipError) -> UInt16 {
            let part = try slice(at, 2)
            return UInt16(part[0]) | UInt16(part[1]) << 8
        }

        func u32(_ at: Int) throws(ZipError) -> UInt32 {
            let part = try slice(at, 4)
            return (0..<4).reduce(0) { $0 | UInt32(part[$1]) << (8 * $1) }
        }
    }
}

/// Why an archive could not be written or read.
public enum ZipError: Error, Sendable, Equatable, CustomStringConvertible {
    case tooLarge
    case notZip
    case malformed(String)
    case zlib(String)

    public var description: String {
        switch self {
        case .tooLarge: "the archive would need zip64 (over 4 GiB or 65,535 entries)"
        case .notZip: "not a zip archive"
        case .malformed(let what): "malformed zip archive: \(what)"
        case .zlib(let what): "zlib: \(what)"
        }
    }
}
