import GatehouseJSON

/// Producing compact JWS and JWTs.
public enum JWS {
    /// `BASE64URL(header) "." BASE64URL(payload) "." BASE64URL(signature)`, the header being
    /// `{"alg","kid","typ":"JWT"}` from `key` plus `extraHeader` (which cannot replace `alg` or
    /// `kid`).
    public static func sign(
        payload: [UInt8],
        with key: some JWSSigningKey,
        extraHeader: [String: JSONValue] = ["typ": "JWT"]
    ) throws -> String {
        var header = extraHeader
        header["alg"] = .string(key.algorithm.rawValue)
        header["kid"] = .string(key.kid)
        let signingInput =
            Base64URL.encode(JSONValue.object(header).serialized.utf8) + "." + Base64URL.encode(payload)
        return signingInput + "." + Base64URL.encode(try key.sign(Array(signingInput.utf8)))
    }

    /// A JWT with `claims` as its payload.
    public static func signJWT(claims: [String: JSONValue], with key: some JWSSigningKey) throws -> String {
        try sign(payload: Array(JSONValue.object(claims).serialized.utf8), with: key)
    }
}
