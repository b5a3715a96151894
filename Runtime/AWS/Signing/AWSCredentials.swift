/// The credentials a call is signed with: what Lambda puts in every function's environment
/// (`AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY`, and `AWS_SESSION_TOKEN` for the role's
/// temporary credentials). Its description never shows the secret or the token.
public struct AWSCredentials: Sendable, Equatable, CustomStringConvertible {
    public var accessKeyID: String
    public var secretAccessKey: String
    public var sessionToken: String?

    public init(accessKeyID: String, secretAccessKey: String, sessionToken: String? = nil) {
        self.accessKeyID = accessKeyID
        self.secretAccessKey = secretAccessKey
        self.sessionToken = sessionToken
    }

    /// The credentials in `environment`; nil when the key id or the secret is missing or empty.
    public init?(environment: [String: String]) {
        guard let id = environment["AWS_ACCESS_KEY_ID"], !id.isEmpty,
            let secret = environment["AWS_SECRET_ACCESS_KEY"], !secret.isEmpty
        else { return nil }
        let token = environment["AWS_SESSION_TOKEN"].flatMap { $0.isEmpty ? nil : $0 }
        self.init(accessKeyID: id, secretAccessKey: secret, sessionToken: token)
    }

    public var description: String {
        "AWSCredentials(\(accessKeyID), secret hidden\(sessionToken == nil ? "" : ", session token hidden"))"
    }
}
