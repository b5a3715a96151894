/// A JWK Set (RFC 7517 §5): `{"keys":[...]}`.
public struct JWKSet: Codable, Sendable, Equatable {
    public var keys: [JWK]

    public init(keys: [JWK]) {
        self.keys = keys
    }

    /// The same set with every private member removed from every key: what may be published.
    public var publicKeys: JWKSet {
        JWKSet(keys: keys.map(\.publicKey))
    }
}
