import Foundation
import Testing

@testable import Packaging

/// The zips: what they hold, read back by our reader and by Info-ZIP's, and byte-identical
/// for the same files.
struct ZipArchiveTests {
    let entries = [
        ZipArchive.Entry(path: "lib/libx.so.1", data: Array(repeating: 7, count: 10_000), mode: 0o755),
        ZipArchive.Entry(path: "bootstrap", data: Array("#!/bin/sh\necho hello\n".utf8), mode: 0o755),
        ZipArchive.Entry(path: "notes.txt", data: [], mode: 0o644),
    ]

    @Test func theSameFilesGiveTheSameBytesInAnyOrder() throws {
        let first = try ZipArchive(entries: entries).bytes()
        let second = try ZipArchive(entries: entries.reversed()).bytes()
        #expect(first == second)
        let read = try ZipArchive(reading: first)
        #expect(read.entries.map(\.path) == ["bootstrap", "lib/libx.so.1", "notes.txt"])
        #expect(read.entries.map(\.mode) == [0o755, 0o755, 0o644])
        #expect(read.entries[1].data == entries[0].data)
        #expect(first.count < 1_000)  // the repeated bytes were deflated
    }

    /// Info-ZIP's zipinfo, another implementation, reads the modes and the fixed date.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/zipinfo")))
    func infoZIPSeesTheModesAndTheFixedDate() async throws {
        let folder = try CFixture.folder()
        let path = folder.appendingPathComponent("a.zip").path
        try Data(try ZipArchive(entries: entries).bytes()).write(to: URL(fileURLWithPath: path))
        let listing = try await CFixture.run("/usr/bin/zipinfo", ["-l", path])
        let bootstrap = try #require(listing.split(separator: "\n").first { $0.hasSuffix(" bootstrap") })
        #expect(bootstrap.hasPrefix("-rwxr-xr-x"))
        #expect(bootstrap.contains("80-Jan-01 00:00"))
        #expect(listing.contains("-rw-r--r--"))
        try await CFixture.run("/usr/bin/unzip", ["-tq", path])
    }

    @Test func whatIsNotAZipIsSaid() throws {
        #expect(throws: ZipError.notZip) { try ZipArchive(reading: Array(repeating: 1, count: 100)) }
        var bytes = try ZipArchive(entries: entries).bytes()
        bytes[40] ^= 0xFF  // inside the first entry's data
        #expect(throws: ZipError.self) { try ZipArchive(reading: bytes) }
    }
}
