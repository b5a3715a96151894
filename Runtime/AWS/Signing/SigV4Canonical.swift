import Crypto

/// A request in SigV4's canonical form: method, encoded path, sorted query, sorted lower-case
/// headers with trimmed values, the signed header names, and the body's SHA-256 in hex.
struct SigV4Canonical {
    let canonicalRequest: String
    let signedHeaders: String

    init(request: SigV4Signer.Request, extraHeaders: [(name: String, value: String)]) throws(SigV4Error) {
        let url = try SigV4URL(request.url)
        var headers: [String: [String]] = ["host": [url.hostHeader]]
        for (name, value) in request.headers + extraHeaders {
            headers[name.lowercased(), default: []].append(Self.trimmed(value))
        }
        let names = headers.keys.sorted()
        signedHeaders = names.joined(separator: ";")
        let lines = names.map { "\($0):\(headers[$0]!.joined(separator: ","))\n" }.joined()
        canonicalRequest = [
            request.method.uppercased(), Self.canonicalPath(url.path), Self.canonicalQuery(url.query), lines,
            signedHeaders, Self.hex(SHA256.hash(data: request.body)),
        ].joined(separator: "\n")
    }

    /// Every segment encoded (again): botocore's rule for every service but S3.
    static func canonicalPath(_ path: String) -> String {
        path.isEmpty ? "/" : encode(path, keepingSlash: true)
    }

    /// Pairs decoded from the URL, encoded as SigV4 encodes, sorted by name then value.
    static func canonicalQuery(_ query: String) -> String {
        guard !query.isEmpty else { return "" }
        let pairs = query.split(separator: "&", omittingEmptySubsequences: true).map { pair -> (String, String) in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            return (
                encode(decode(parts[0]), keepingSlash: false),
                encode(decode(parts.count > 1 ? parts[1] : ""), keepingSlash: false)
            )
        }
        return pairs.sorted { $0.0 == $1.0 ? $0.1 < $1.1 : $0.0 < $1.0 }.map { "\($0.0)=\($0.1)" }.joined(
            separator: "&")
    }

    /// Outer spaces removed, inner runs of spaces made one.
    static func trimmed(_ value: String) -> String {
        value.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
    }

    /// RFC 3986 unreserved characters kept, every other byte `%XX` in upper-case hex.
    static func encode(_ text: some StringProtocol, keepingSlash: Bool) -> String {
        var out = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            case UInt8(ascii: "/") where keepingSlash:
                out.append("/")
            default:
                out += "%" + upperHex(byte)
            }
        }
        return out
    }

    /// `%XX` undone (and `+` kept as it is, as botocore reads a URL's query).
    static func decode(_ text: some StringProtocol) -> String {
        var bytes: [UInt8] = []
        let utf8 = Array(text.utf8)
        var index = 0
        while index < utf8.count {
            if utf8[index] == UInt8(ascii: "%"), index + 2 < utf8.count,
                let value = UInt8(String(decoding: utf8[index + 1...index + 2], as: UTF8.self), radix: 16)
            {
                bytes.append(value)
                index += 3
            } else {
                bytes.append(utf8[index])
                index += 1
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    static func hex(_ bytes: some Sequence<UInt8>) -> String {
        let digits = Array("0123456789abcdef".unicodeScalars)
        var out = ""
        for byte in bytes {
            out.unicodeScalars.append(digits[Int(byte >> 4)])
            out.unicodeScalars.append(digits[Int(byte & 0x0F)])
        }
        return out
    }

    private static func upperHex(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF".unicodeScalars)
        var out = ""
        out.unicodeScalars.append(digits[Int(byte >> 4)])
        out.unicodeScalars.append(digits[Int(byte & 0x0F)])
        return out
    }
}
