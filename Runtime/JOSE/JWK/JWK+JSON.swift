import GatehouseJSON

extension JWK {
    /// Reads one key of a parsed JWK Set. A member with the wrong JSON type makes this key
    /// malformed (and only this key: the set's reader skips it and keeps the rest). Members this
    /// module does not use (`x5c`, `x5t`, ...) are ignored.
    public init(object: [String: JSONValue]) throws(JOSEError) {
        func text(_ name: String) throws(JOSEError) -> String? {
            switch object[name] {
            case nil: return nil
            case .string(let value): return value
            default: throw JOSEError.malformedKey("\"\(name)\" is not a string")
            }
        }
        guard let kty = try text("kty") else { throw JOSEError.malformedKey("the key has no \"kty\"") }
        self.init(kty: kty, kid: try text("kid"), use: try text("use"), alg: try text("alg"))
        switch object["key_ops"] {
        case nil: break
        case .array(let values):
            var operations: [String] = []
            for value in values {
                guard case .string(let operation) = value else {
                    throw JOSEError.malformedKey("\"key_ops\" holds a value that is not a string")
                }
                operations.append(operation)
            }
            keyOps = operations
        default: throw JOSEError.malformedKey("\"key_ops\" is not a list")
        }
        n = try text("n")
        e = try text("e")
        d = try text("d")
        p = try text("p")
        q = try text("q")
        dp = try text("dp")
        dq = try text("dq")
        qi = try text("qi")
        crv = try text("crv")
        x = try text("x")
        y = try text("y")
    }
}
