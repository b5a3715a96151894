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

    @Test func eachLineReachesTheDestinationBehindThePrefixAndALastLineGetsItsNewline() async throws {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        let prefixer = try LogPrefixer(prefix: "Fn #2 | ", destination: ends[1])
        Self.write("one\ntwo\nthr", to: prefixer)
        #expect(try await Self.taken(8, by: prefixer))
        Self.write("ee\n\nno newline", to: prefixer)
        prefixer.childStarted()  // the copier ends once it has read everything
        let expected = "Fn #2 | one\nFn #2 | two\nFn #2 | three\nFn #2 | \nFn #2 | no newline\n"
        let received = String(decoding: try await Self.read(expected.utf8.count, from: ends[0]), as: UTF8.self)
        #expect(received == expected)
        // Closed only once the copier has written its last line: a copier still writing would
        // otherwise get SIGPIPE, or a descriptor number reused by then.
        if received == expected {
            close(ends[0])
            close(ends[1])
        }
    }

    /// A read that has taken bytes from the pipe but not added them counts as output still to
    /// come, as bytes in the pipe do: `tail` waits for both.
    @Test func aReadInProgressIsOutputStillToAdd() async throws {
        let prefixer = try LogPrefixer(prefix: "T #1 | ", destination: -1)
        defer { prefixer.childStarted() }
        #expect(!prefixer.hasOutputToAdd)
        prefixer.recent.beginRead()
        #expect(prefixer.hasOutputToAdd)
        prefixer.recent.endRead(appending: Array("late\n".utf8))
        #expect(!prefixer.hasOutputToAdd)
        #expect(String(decoding: await prefixer.tail(since: 0), as: UTF8.self) == "late\n")
    }

    @Test func piecesPutThePrefixBeforeEveryLineInWritesOfWholeLines() {
        func text(_ pieces: [[UInt8]]) -> [String] { pieces.map { String(decoding: $0, as: UTF8.self) } }
        #expect(text(LogPrefixer.pieces(Array("a\n\nbc\n".utf8), prefix: Array("> ".utf8))) == ["> a\n> \n> bc\n"])
        #expect(LogPrefixer.pieces([UInt8](), prefix: Array("> ".utf8)).isEmpty)
        // Whole lines up to the limit per piece; a line over it is a piece of its own.
        let lines = "aaaa\nbbbb\n" + String(repeating: "c", count: 20) + "\nd\n"
        #expect(
            text(LogPrefixer.pieces(Array(lines.utf8), prefix: Array("> ".utf8), limit: 13)) == [
                "> aaaa\n", "> bbbb\n", "> " + String(repeating: "c", count: 20) + "\n", "> d\n",
            ])
        #expect(
            text(LogPrefixer.pieces(Array(lines.utf8), prefix: Array("> ".utf8), limit: 14)) == [
                "> aaaa\n> bbbb\n", "> " + String(repeating: "c", count: 20) + "\n", "> d\n",
            ])
    }

    /// Reads `count` bytes from `descriptor`, waiting at most 10 s for them.
    static func read(_ count: Int, from descriptor: Int32) async throws -> [UInt8] {
        var received: [UInt8] = []
        let deadline = ContinuousClock.now + .seconds(10)
        var buffer = [UInt8](repeating: 0, count: 4096)
        while received.count < count, ContinuousClock.now < deadline {
            var waiting: Int32 = 0
            _ = ioctl(descriptor, UInt(FIONREAD), &waiting)
            guard waiting > 0 else {
                try await Task.sleep(for: .milliseconds(2))
                continue
            }
            let got = buffer.withUnsafeMutableBytes {
                Glibc.read(descriptor, $0.baseAddress, min(Int(waiting), $0.count))
            }
            if got > 0 { received += buffer[..<got] }
        }
        return received
    }
}
