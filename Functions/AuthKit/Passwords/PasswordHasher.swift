import Crypto
import _CryptoExtras

/// Hashes passwords with scrypt (swift-crypto's `KDF.Scrypt`, on BoringSSL) and checks them,
/// comparing derived keys in constant time. A password is hashed as its UTF-8 bytes.
public struct PasswordHasher: Sendable {
    public let parameters: ScryptParameters

    public init(parameters: ScryptParameters = .current) {
        self.parameters = parameters
    }

    /// The hasher a function runs: today's cost (`ScryptParameters.current`), or the one
    /// `PASSWORD_HASH_COST` names (`ln=10,r=8,p=1`), for tests of the built functions that
    /// cannot afford today's cost in a debug build. At most the ceiling, and, under `STAGE`
    /// `prod`, never below today's cost.
    public init(environment: [String: String]) throws(SettingsError) {
        let reader = EnvironmentReader(environment: environment)
        guard let text = reader.optional("PASSWORD_HASH_COST") else {
            self.init()
            return
        }
        guard let parameters = ScryptParameters(text: text), parameters.isAcceptable else {
            throw .invalid("PASSWORD_HASH_COST", "must be ln=N,r=R,p=P costing at most \(ScryptParameters.ceiling)")
        }
        guard !parameters.isWeaker(than: .current) || reader.optional("STAGE") != "prod" else {
            throw .invalid("PASSWORD_HASH_COST", "must be at least \(ScryptParameters.current) under STAGE prod")
        }
        self.init(parameters: parameters)
    }

    /// What a check found.
    public enum Check: Sendable, Equatable {
        /// The password is right; `needsRehash` when its hash was made at a lower cost than today's.
        case matches(needsRehash: Bool)
        case mismatch
    }

    /// A new hash of `password` with a fresh 16-byte salt.
    public func hash(_ password: String) throws -> PasswordHash {
        let salt = RandomToken.bytes(16)
        return PasswordHash(
            parameters: parameters, salt: salt, key: try Self.derive(password, salt: salt, parameters: parameters))
    }

    /// Checks `password` against `stored`; a stored text that is not a hash is a mismatch. A
    /// bcrypt hash (`BcryptHash`, from an import) is checked and, when right, always redone.
    public func check(_ password: String, against stored: String) throws -> Check {
        if let imported = BcryptHash(encoded: stored) {
            return imported.matches(password) ? .matches(needsRehash: true) : .mismatch
        }
        guard let hash = PasswordHash(encoded: stored) else {
            burn(password)
            return .mismatch
        }
        let key = try Self.derive(password, salt: hash.salt, parameters: hash.parameters)
        guard ConstantTime.equal(key, hash.key) else { return .mismatch }
        return .matches(needsRehash: hash.parameters.isWeaker(than: parameters))
    }

    /// The work of a check against a hash that does not exist: a sign-in for an unknown address
    /// or a locked account costs what a real check costs, so its timing tells nothing.
    public func burn(_ password: String) {
        _ = try? Self.derive(password, salt: Self.dummySalt, parameters: parameters)
    }

    static let dummySalt = [UInt8](repeating: 0x5A, count: 16)

    static func derive(_ password: String, salt: [UInt8], parameters: ScryptParameters) throws -> [UInt8] {
        try derive(Array(password.utf8), salt: salt, parameters: parameters, length: 32)
    }

    /// scrypt itself (RFC 7914), for the hasher and its test vectors.
    static func derive(
        _ password: [UInt8], salt: [UInt8], parameters: ScryptParameters, length: Int
    ) throws
        -> [UInt8]
    {
        let key = try KDF.Scrypt.deriveKey(
            from: password, salt: salt, outputByteCount: length, rounds: 1 << parameters.logN,
            blockSize: parameters.r, parallelism: parameters.p)
        return key.withUnsafeBytes { Array($0) }
    }
}
