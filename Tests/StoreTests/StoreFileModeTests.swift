import Foundation
import GatehouseJSON
import Store
import Testing

/// The store holds every session and code: its files are its owner's alone.
struct StoreFileModeTests {
    func mode(_ path: String) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        return (attributes[.posixPermissions] as? Int ?? -1) & 0o777
    }

    /// Before, SQLite created the file 0644 (less the umask), and its WAL the same.
    @Test func aNewStoreAndItsWALAreCreated0600() async throws {
        let path = StoreFixtures.temporaryPath()
        let previous = umask(0o022)
        defer { umask(previous) }
        let store = try SQLiteStore(path: path, tables: StoreFixtures.tables)
        try await store.put("Tokens", item: ["id": "a"], condition: nil)
        #expect(try mode(path) == 0o600)
        #expect(try mode(path + "-wal") == 0o600)
        #expect(try mode(path + "-shm") == 0o600)
    }
}
