import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A TCP client that behaves as no library would: it connects, writes part of what it should,
/// and hangs up with a reset (SO_LINGER 0). The shutdown tests throw it at servers to show that
/// no connection, however it ends, can end the test process.
///
/// The socket calls block, so each batch runs on a thread of its own, never on one of Swift's
/// few pool threads.
public enum RudeClient {
    /// The first bytes of a TLS 1.2 ClientHello record: a handshake the server starts and never
    /// sees the rest of.
    public static let partialClientHello: [UInt8] = [0x16, 0x03, 0x01, 0x02, 0x00, 0x01, 0x00, 0x01, 0xFC, 0x03, 0x03]

    /// A request head announcing a body of 4096 bytes, and 3 of them.
    public static let partialBody = Array(
        "POST /echo HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 4096\r\n\r\nabc".utf8)

    /// Connects to 127.0.0.1:`port` `count` times, each time writing `bytes` (nothing if empty)
    /// and resetting the connection. Returns how many connections the server accepted.
    public static func abort(port: Int, sending bytes: [UInt8], count: Int) async -> Int {
        await onThread {
            (0..<count).reduce(0) { accepted, _ in accepted + (abortOnce(port: port, sending: bytes) ? 1 : 0) }
        }
    }

    /// Connects, writes `bytes` and resets, again and again, until a connection is refused (the
    /// listener is closed), `limit` attempts have been made or 10 s have passed (a bound for a
    /// loaded machine, not a timing); alternates `bytes` with an empty
    /// write. `started` is called once the first attempt is made, so that a caller can start
    /// what must overlap with them. Returns how many connections were accepted and whether one
    /// was refused.
    public static func abortUntilRefused(
        port: Int, sending bytes: [UInt8], limit: Int, started: @escaping @Sendable () -> Void = {}
    ) async -> (accepted: Int, refused: Bool) {
        await onThread {
            var accepted = 0
            defer { if accepted == 0 { started() } }
            let deadline = ContinuousClock.now + .seconds(10)
            for attempt in 0..<limit where ContinuousClock.now < deadline {
                guard abortOnce(port: port, sending: attempt.isMultiple(of: 2) ? bytes : []) else {
                    return (accepted, true)
                }
                accepted += 1
                if accepted == 1 { started() }
            }
            return (accepted, false)
        }
    }

    /// What `stopUnderFire` saw: connections accepted while stopping, whether one was refused
    /// before the attempts ran out, and whether the port still accepted once `stop` returned.
    public struct Fire: Sendable, CustomStringConvertible {
        public let accepted: Int
        public let refused: Bool
        public let acceptedAfterStop: Bool

        /// Connections came in during the stop, and none once the listener was gone.
        public var isClean: Bool { accepted > 0 && refused && !acceptedAfterStop }

        public var description: String {
            "\(accepted) accepted while stopping, refused: \(refused), accepted after the stop: \(acceptedAfterStop)"
        }
    }

    /// Runs `stop` while a thread keeps connecting, writing `bytes` and resetting, from before
    /// the stop begins until the listener is gone (within 10 s).
    public static func stopUnderFire(port: Int, sending bytes: [UInt8], stop: () async -> Void) async -> Fire {
        let (started, firing) = AsyncStream.makeStream(of: Void.self)
        let fire = Task { await abortUntilRefused(port: port, sending: bytes, limit: 1_000_000) { firing.finish() } }
        for await _ in started {}
        await stop()
        let (accepted, refused) = await fire.value
        return Fire(accepted: accepted, refused: refused, acceptedAfterStop: await accepts(port: port))
    }

    /// Whether 127.0.0.1:`port` accepts a connection now.
    public static func accepts(port: Int) async -> Bool {
        await onThread { abortOnce(port: port, sending: []) }
    }

    /// Sends `request` whole from `source` (a loopback address: the server sees it as the
    /// client's) and reads until the server closes: the answer's text.
    public static func exchange(port: Int, from source: String = "127.0.0.1", _ request: String) async -> String {
        await onThread {
            guard let fd = connected(port: port, from: source) else { return "" }
            defer { close(fd) }
            let bytes = Array(request.utf8)
            guard send(fd, bytes, bytes.count, Int32(MSG_NOSIGNAL)) == bytes.count else { return "" }
            var received: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 65536)
            while case let count = recv(fd, &chunk, chunk.count, 0), count > 0 { received += chunk[..<count] }
            return String(decoding: received, as: UTF8.self)
        }
    }

    private static func abortOnce(port: Int, sending bytes: [UInt8]) -> Bool {
        guard let fd = connected(port: port) else { return false }
        if !bytes.isEmpty { _ = send(fd, bytes, bytes.count, Int32(MSG_NOSIGNAL)) }
        var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
        _ = setsockopt(fd, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
        close(fd)
        return true
    }

    /// A socket connected to 127.0.0.1:`port` from `source` (any address of 127.0.0.0/8, which
    /// is all loopback), or nil when the connection is refused.
    public static func connected(port: Int, from source: String = "127.0.0.1") -> Int32? {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return nil }
        var local = sockaddr_in()
        local.sin_family = sa_family_t(AF_INET)
        local.sin_addr.s_addr = inet_addr(source)
        let bound = withUnsafePointer(to: &local) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0 else {
            close(fd)
            return nil
        }
        var target = sockaddr_in()
        target.sin_family = sa_family_t(AF_INET)
        target.sin_port = UInt16(port).bigEndian
        target.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &target) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else {
            close(fd)
            return nil
        }
        return fd
    }

    private static func onThread<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in Thread { continuation.resume(returning: work()) }.start() }
    }
}
