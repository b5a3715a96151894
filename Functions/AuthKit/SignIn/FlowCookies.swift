/// The cookies of the API's own browser flows (the OAuth flow's, the implicit return's verifier):
/// `HttpOnly`, with `SameSite`; deployed, `__Host-` names, `Secure` and `Path=/`, so that only
/// this host, over HTTPS, can set them (a sibling subdomain cannot plant one); on loopback over
/// plain HTTP, where no browser keeps a `Secure` cookie, their plain names on `/auth`.
public struct FlowCookies: Sendable {
    /// The API's public base URL (`ISSUER`).
    let issuer: String

    public init(issuer: String) {
        self.issuer = issuer
    }

    /// Whether the API is on loopback over plain HTTP.
    var isLocal: Bool { issuer.hasPrefix("http://127.0.0.1") || issuer.hasPrefix("http://localhost") }

    /// The name the cookie `name` is set and read under.
    public func name(_ name: String) -> String { isLocal ? name : "__Host-\(name)" }

    /// The `Set-Cookie` value of `name` holding `value` for `maxAge` seconds (0: cleared).
    public func cookie(_ name: String, _ value: String, maxAge: Int, sameSite: String = "Lax") -> String {
        let attributes = isLocal ? "" : " Secure;"
        return "\(self.name(name))=\(value); HttpOnly;\(attributes) SameSite=\(sameSite); Max-Age=\(maxAge); "
            + "Path=\(isLocal ? "/auth" : "/")"
    }
}
