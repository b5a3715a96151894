import Foundation
import JOSE
import Testing

@testable import AuthKit

struct SigningKeyStoreTests {
    func temporaryDirectory() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("gatehouse-keys-\(UUID().uuidString)")
            .path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    @Test func locationComesFromTheEnvironmentInlineFirst() {
        #expect(SigningKeyLocation.fromEnvironment([:]) == nil)
        #expect(SigningKeyLocation.fromEnvironment(["SIGNING_KEYS_FILE": "/k.json"]) == .file(path: "/k.json"))
        #expect(
            SigningKeyLocation.fromEnvironment(["SIGNING_KEYS": "{}", "SIGNING_KEYS_FILE": "/k.json"]) == .inline("{}"))
        #expect(SigningKeyLocation.fromEnvironment(["SIGNING_KEYS": "", "SIGNING_KEYS_FILE": ""]) == nil)
    }

    @Test func createsThePrivateFileOnFirstUseWithMode0600() throws {
        let path = try temporaryDirectory() + "/nested/.gatehouse/signing-keys.json"
        let store = SigningKeyStore(location: .file(path: path))
        let (created, wasCreated) = try store.loadOrCreate()
        #expect(wasCreated)
        let mode = try #require(FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
        #expect(mode == 0o600)
        let (again, createdAgain) = try store.loadOrCreate()
        #expect(!createdAgain)
        #expect(again.current.kid == created.current.kid)
    }

    @Test func concurrentFirstUsesAgreeOnOneKey() async throws {
        let path = try temporaryDirectory() + "/signing-keys.json"
        let kids = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<8 {
                group.addTask { try SigningKeyStore(location: .file(path: path)).loadOrCreate().keys.current.kid }
            }
            return try await group.reduce(into: Set<String>()) { $0.insert($1) }
        }
        #expect(kids.count == 1)
        #expect(try SigningKeyStore(location: .file(path: path)).load().current.kid == kids.first)
        let leftovers = try FileManager.default.contentsOfDirectory(
            atPath: (path as NSString).deletingLastPathComponent)
        #expect(leftovers == ["signing-keys.json"], "temporary files are cleaned up")
    }

    @Test func saveReplacesTheFileAtomically() throws {
        let path = try temporaryDirectory() + "/signing-keys.json"
        let store = SigningKeyStore(location: .file(path: path))
        var keys = try store.loadOrCreate().keys
        try keys.rotate()
        try store.save(keys)
        #expect(try store.load().keys.map(\.kid) == keys.keys.map(\.kid))
    }

    @Test func inlineKeysLoadButCannotBeChanged() throws {
        let set = try SigningKeySet.generate()
        let json = String(decoding: try set.privateJWKSJSON(), as: UTF8.self)
        let store = SigningKeyStore(location: .inline(json))
        #expect(try store.load().current.kid == set.current.kid)
        #expect(throws: SigningKeyStoreError.readOnly) { try store.save(set) }
    }

    @Test func errorsNameThePlaceAndNeverTheKeyMaterial() throws {
        let missing = SigningKeyStore(location: .file(path: "/nonexistent/dir/keys.json"))
        #expect {
            try missing.load()
        } throws: { error in
            "\(error)".hasPrefix("cannot read the signing keys at /nonexistent/dir/keys.json")
        }
        let directory = try temporaryDirectory()
        let path = directory + "/broken.json"
        try Data("{\"keys\": [".utf8).write(to: URL(fileURLWithPath: path))
        #expect {
            try SigningKeyStore(location: .file(path: path)).load()
        } throws: { error in
            "\(error)".hasPrefix("the signing keys in \(path) are invalid")
        }
        let secret = try String(decoding: SigningKeySet.generate().privateJWKSJSON(), as: UTF8.self)
        let mangled = secret.replacingOccurrences(of: "\"e\"", with: "\"x\"")
        #expect {
            try SigningKeyStore(location: .inline(mangled)).load()
        } throws: { error in
            let message = "\(error)"
            let d = try! JSONDecoder().decode(JWKSet.self, from: Data(secret.utf8)).keys[0].d!
            return message.contains("SIGNING_KEYS") && !message.contains(d)
        }
    }
}
