extension JWK {
    /// The RSA public integers, checked the same way wherever a public RSA key is read: `n` and
    /// `e` present, base64url, non-empty, minimal (no leading zero octet), and a modulus of at
    /// least `RSASigningKey.minimumBits`.
    func rsaPublicIntegers() throws(JOSEError) -> (modulus: [UInt8], exponent: [UInt8]) {
        func integer(_ name: String, _ text: String?) throws(JOSEError) -> [UInt8] {
            guard let text, let bytes = Base64URL.decode(text), let first = bytes.first, first != 0 else {
                throw JOSEError.malformedKey("\"\(name)\" is missing or not a minimal base64url integer")
            }
            return bytes
        }
        let modulus = try integer("n", n)
        let exponent = try integer("e", e)
        let bits = modulus.count * 8 - modulus[0].leadingZeroBitCount
        guard bits >= RSASigningKey.minimumBits else { throw JOSEError.weakKey(bits: bits) }
        return (modulus, exponent)
    }
}
