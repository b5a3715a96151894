import Testing

@testable import Emulator

#if canImport(Glibc)
import Glibc
#endif

/// Function output through its log pipe: whole lines, whatever the writes' sizes, kept per
/// pipe for the Invoke API's `Tail`.
struct LogPrefixerTests {
    static func write(_ text: String, to prefixer: LogPrefixer) {
        let bytes = Array(text.utf8)
        #expect(Glibc.write(prefixer.writeEnd, bytes, bytes.count) == bytes.count)
    }

    /// Waits, at most 10 s, until `bytes` of whole lines have been taken from the pipe.
    static func taken(_ bytes: Int, by prefixer: LogPrefixer) async throws -> Bool {
        let deadline = ContinuousClock.now + .seconds(10)
        while prefixer.mark < bytes, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(2)) }
        return prefixer.mark == bytes
    }

    @Test func linesSplitAcrossWritesAndSharedWritesComeOutWhole() async throws {
        let first = try LogPrefixer(prefix: "First #1 | ")
        let second = try LogPrefixer(prefix: "Second #1 | ")
        defer {
            first.childStarted()
            second.childStarted()
        }
        Self.write("one\ntwo\nthr", to: first)
        Self.write("alpha\n", to: second)
        #expect(try await Self.taken(8, by: first))
        Self.write("ee\n\nfour\n", to: first)
        Self.write("beta\ngam", to: second)
        #expect(try await Self.taken(20, by: first))
        #expect(try await Self.taken(11, by: second))
        #expect(String(decoding: await first.tail(since: 0), as: UTF8.self) == "one\ntwo\nthree\n\nfour\n")
        #expect(String(decoding: await first.tail(since: 8), as: UTF8.self) == "three\n\nfour\n")
        #expect(String(decoding: await second.tail(since: 0), as: UTF8.self) == "alpha\nbeta\n")
    }

    @Test func theTailIsTheLast4KB() async throws {
        let prefixer = try LogPrefixer(prefix: "Big #1 | ")
        defer { prefixer.childStarted() }
        let line = String(repeating: "x", count: 99) + "\n"
        for _ in 0..<100 { Self.write(line, to: prefixer) }
        #expect(try await Self.taken(10_000, by: prefixer))
        let tail = await prefixer.tail(since: 0)
        #expect(tail.count == LogPrefixer.tailBytes)
        #expect(tail.last == UInt8(ascii: "\n"))
    }
}
