import JOSE

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Loads and saves the signing key set at its `SigningKeyLocation`.
///
/// A key file is written with mode 0600 and replaced atomically (write a temporary file, then
/// rename), so a reader never sees half a file. Creating it on first use is race-free across
/// processes: the first writer's file wins and the others read it.
public struct SigningKeyStore: Sendable {
    public let location: SigningKeyLocation

    public init(location: SigningKeyLocation) {
        self.location = location
    }

    /// The key set; fails when it is missing or invalid.
    public func load() throws -> SigningKeySet {
        try read { try SigningKeySet(jwksJSON: $0) }
    }

    /// Only the public keys to publish, without building a private key (see
    /// `SigningKeySet.publicJWKS(fromJWKSJSON:)`); fails when the set is missing or invalid.
    public func loadPublicJWKS() throws -> JWKSet {
        try read { try SigningKeySet.publicJWKS(fromJWKSJSON: $0) }
    }

    /// Reads the stored JSON and interprets it, naming the source in any error.
    private func read<T>(_ interpret: ([UInt8]) throws -> T) throws -> T {
        let bytes: [UInt8]
        let source: String
        switch location {
        case .inline(let json):
            bytes = Array(json.utf8)
            source = "SIGNING_KEYS"
        case .file(let path):
            do {
                bytes = try PrivateFile.read(path)
            } catch {
                throw SigningKeyStoreError.unreadable(path: path, reason: "\(error)")
            }
            source = path
        }
        do {
            return try interpret(bytes)
        } catch {
            throw SigningKeyStoreError.invalid(source: source, reason: "\(error)")
        }
    }

    /// The key set, creating a file with one new key when the file does not exist yet.
    /// Returns the set and whether this call created it.
    public func loadOrCreate() throws -> (keys: SigningKeySet, created: Bool) {
        guard case .file(let path) = location, !PrivateFile.exists(path) else {
            return (try load(), false)
        }
        let keys = try SigningKeySet.generate()
        do {
            if try PrivateFile.createExclusively(path, contents: Array(keys.privateJWKSJSON())) {
                return (keys, true)
            }
        } catch {
            throw SigningKeyStoreError.unwritable(path: path, reason: "\(error)")
        }
        // Another process created it first: use theirs, so every process signs with the same key.
        return (try load(), false)
    }

    /// Replaces the stored set. Only a file location can be written.
    public func save(_ keys: SigningKeySet) throws {
        guard case .file(let path) = location else { throw SigningKeyStoreError.readOnly }
        do {
            try PrivateFile.replace(path, contents: Array(keys.privateJWKSJSON()))
        } catch {
            throw SigningKeyStoreError.unwritable(path: path, reason: "\(error)")
        }
    }
}

/// Why the signing keys could not be loaded or saved; each names the place to look.
public enum SigningKeyStoreError: Error, Sendable, Equatable, CustomStringConvertible {
    case notConfigured
    case unreadable(path: String, reason: String)
    case unwritable(path: String, reason: String)
    case invalid(source: String, reason: String)
    case readOnly

    public var description: String {
        switch self {
        case .notConfigured: "no signing keys: set SIGNING_KEYS (a JWK Set) or SIGNING_KEYS_FILE (its path)"
        case .unreadable(let path, let reason): "cannot read the signing keys at \(path): \(reason)"
        case .unwritable(let path, let reason): "cannot write the signing keys at \(path): \(reason)"
        case .invalid(let source, let reason): "the signing keys in \(source) are invalid: \(reason)"
        case .readOnly:
            "the signing keys come from SIGNING_KEYS and cannot be changed here: change them where they come from"
        }
    }
}
