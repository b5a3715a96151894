import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The last header a verifier took apart, kept with the exact base64url text it came from.
///
/// Every token one issuer mints with one key carries the same header segment, so a verifier
/// would decode and check the same bytes on every request. A header is a function of its text
/// alone: reusing the checked form for byte-identical text changes no decision, and a header
/// that fails its checks is never kept.
final class JWSHeaderMemo: Sendable {
    private let last = Mutex<(segment: [UInt8], header: JWSHeader)?>(nil)

    /// The checked header for `segment`, from the memo when it is the same text as last time.
    func header(segment: UnsafeBufferPointer<UInt8>) throws(JWTError) -> JWSHeader {
        let remembered = last.withLock { entry -> JWSHeader? in
            guard let entry, entry.segment.count == segment.count else { return nil }
            let same = entry.segment.withUnsafeBufferPointer { kept in
                segment.isEmpty || memcmp(kept.baseAddress!, segment.baseAddress!, segment.count) == 0
            }
            return same ? entry.header : nil
        }
        if let remembered { return remembered }
        let header = try JWSHeader(segment: segment)
        last.withLock { $0 = (Array(segment), header) }
        return header
    }
}
