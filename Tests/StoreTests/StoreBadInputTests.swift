import Foundation
import GRDB
import GatehouseJSON
import Store
import Testing

/// Bad input: a clear error, and nothing changes.
struct StoreBadInputTests {
    @Test func anUnknownTableListsTheOnesThereAre() async throws {
        let store = try StoreFixtures.store()
        await #expect(throws: StoreError.unknownTable("Nope", available: ["Counters", "Events", "Scores", "Tokens"])) {
            _ = try await store.get("Nope", key: ItemKey("x"))
        }
    }

    @Test func keysMustBePresentAndOfTheirType() async throws {
        let store = try StoreFixtures.store()
        await #expect(throws: StoreError.missingKeyAttribute(table: "Tokens", attribute: "id")) {
            try await store.put("Tokens", item: ["email": "a"], condition: nil)
        }
        await #expect(throws: StoreError.missingKeyAttribute(table: "Events", attribute: "at")) {
            try await store.put("Events", item: ["user": "u"], condition: nil)
        }
        await #expect(throws: StoreError.wrongKeyType(table: "Tokens", attribute: "id", expected: "non-empty string")) {
            try await store.put("Tokens", item: ["id": 7], condition: nil)
        }
        await #expect(throws: StoreError.wrongKeyType(table: "Tokens", attribute: "id", expected: "non-empty string")) {
            try await store.put("Tokens", item: ["id": ""], condition: nil)
        }
        await #expect(throws: StoreError.wrongKeyType(table: "Counters", attribute: "n", expected: "number")) {
            _ = try await store.get("Counters", key: ItemKey("1"))
        }
        await #expect(throws: StoreError.missingKeyAttribute(table: "Events", attribute: "at")) {
            _ = try await store.get("Events", key: ItemKey("u"))
        }
        #expect(try await store.scan("Tokens", limit: nil).isEmpty)
    }

    @Test func anItemOver400KBIsRefused() async throws {
        let store = try StoreFixtures.store()
        let huge: Item = ["id": "big", "blob": .string(String(repeating: "x", count: 400 * 1024))]
        await #expect {
            try await store.put("Tokens", item: huge, condition: nil)
        } throws: { error in
            guard case StoreError.itemTooLarge(let table, let bytes) = error else { return false }
            return table == "Tokens" && bytes > 400 * 1024
        }
        #expect(try await store.get("Tokens", key: ItemKey("big")) == nil)
        let justUnder: Item = ["id": "ok", "blob": .string(String(repeating: "x", count: 400 * 1024 - 40))]
        try await store.put("Tokens", item: justUnder, condition: nil)
    }

    @Test func aFileThatIsNotAStoreIsRefusedAndLeftAlone() throws {
        let garbage = StoreFixtures.temporaryPath()
        try FileManager.default.createDirectory(
            atPath: (garbage as NSString).deletingLastPathComponent, withIntermediateDirectories: true
        )
        let text = Data(String(repeating: "not a database ", count: 100).utf8)
        try text.write(to: URL(fileURLWithPath: garbage))
        #expect(throws: StoreError.unusableFile(path: garbage, reason: "it is not a SQLite database, or it is corrupt"))
        {
            try SQLiteStore(path: garbage, tables: StoreFixtures.tables)
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: garbage)) == text)

        let other = StoreFixtures.temporaryPath()
        try FileManager.default.createDirectory(
            atPath: (other as NSString).deletingLastPathComponent, withIntermediateDirectories: true
        )
        try DatabaseQueue(path: other).write { try $0.execute(sql: "CREATE TABLE mine (x)") }
        #expect(throws: StoreError.self) { try SQLiteStore(path: other, tables: StoreFixtures.tables) }
    }

    @Test func aStoreFromANewerGatehouseIsRefused() throws {
        let path = StoreFixtures.temporaryPath()
        _ = try StoreFixtures.store(path: path)
        try DatabaseQueue(path: path).writeWithoutTransaction { try $0.execute(sql: "PRAGMA user_version = 99") }
        #expect {
            try SQLiteStore(path: path, tables: StoreFixtures.tables)
        } throws: { error in
            "\(error)".contains("written by a newer Gatehouse (schema 99, this one knows 1)")
        }
    }

    /// A store file nobody may write (as root, whom file modes do not stop, through the
    /// immutable attribute) is refused with a clear error when opened, and left as it was.
    @Test(
        .enabled(
            if: StoreBadInputTests.canMakeFilesReadOnly,
            "needs a way to make a file unwritable for this user: a mode, or chattr for root"))
    func aReadOnlyFileIsRefusedWithAClearError() async throws {
        let path = StoreFixtures.temporaryPath()
        do {
            let store = try StoreFixtures.store(path: path)
            try await store.put("Tokens", item: ["id": "kept"], condition: nil)
        }
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        try Self.setReadOnly(path, true)
        defer { try? Self.setReadOnly(path, false) }

        #expect(throws: StoreError.unusableFile(path: path, reason: "it is read-only")) {
            try StoreFixtures.store(path: path)
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }

    /// Whether `setReadOnly` works here: root needs `chattr` and a file system with the
    /// immutable attribute (ext4 has it; tmpfs and overlayfs do not).
    static let canMakeFilesReadOnly: Bool = {
        let probe = StoreFixtures.temporaryPath()
        let folder = (probe as NSString).deletingLastPathComponent
        defer { try? FileManager.default.removeItem(atPath: folder) }
        guard (try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)) != nil,
            FileManager.default.createFile(atPath: probe, contents: Data())
        else { return false }
        guard (try? setReadOnly(probe, true)) != nil else { return false }
        let refused = FileHandle(forWritingAtPath: probe) == nil
        try? setReadOnly(probe, false)
        return refused
    }()

    /// Makes `path` unwritable for this process: a mode for an ordinary user, the immutable
    /// attribute for root.
    static func setReadOnly(_ path: String, _ readOnly: Bool) throws {
        if geteuid() != 0 {
            try FileManager.default.setAttributes([.posixPermissions: readOnly ? 0o444 : 0o644], ofItemAtPath: path)
            return
        }
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/chattr") else {
            throw StoreError.unusableFile(path: path, reason: "no chattr to set the immutable attribute")
        }
        let chattr = Process()
        chattr.executableURL = URL(fileURLWithPath: "/usr/bin/chattr")
        chattr.standardError = FileHandle.nullDevice
        chattr.arguments = [readOnly ? "+i" : "-i", path]
        try chattr.run()
        chattr.waitUntilExit()
        guard chattr.terminationStatus == 0 else {
            throw StoreError.unusableFile(path: path, reason: "chattr could not change the immutable attribute")
        }
    }

    /// A function process is given its store by GATEHOUSE_STORE; without it, a clear error.
    @Test func aFunctionWithoutGATEHOUSE_STOREIsToldSo() {
        #expect(throws: StoreError.unusableFile(path: "", reason: "GATEHOUSE_STORE is not set")) {
            try SQLiteStore(environment: ["GATEHOUSE_STORE": ""])
        }
    }

    @Test func reopeningKeepsTheItems() async throws {
        let path = StoreFixtures.temporaryPath()
        let first = try StoreFixtures.store(path: path)
        try await first.put("Tokens", item: ["id": "kept"], condition: nil)
        let second = try StoreFixtures.store(path: path)
        #expect(try await second.get("Tokens", key: ItemKey("kept")) == ["id": "kept"])
    }
}
