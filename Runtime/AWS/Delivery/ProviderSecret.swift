import AWSSecrets
import AuthKit
import OutboundHTTP

/// A delivery provider's credential: the plain variable `plain` for local runs (`RESEND_API_KEY`),
/// if any, else the Secrets Manager secret the variable `secret` names (`RESEND_API_KEY_SECRET`), read
/// with the function's role on the first message and kept for the process's life. A failed read
/// is tried again by the next message. The value is never logged or put in an error.
actor ProviderSecret {
    private let plain: String?
    private let secret: String
    private let environment: [String: String]
    private let http: OutboundHTTPClient
    private var reading: Task<String, any Error>?

    /// The credential from `environment`: `plain`'s value, or the secret `secret` names; the
    /// missing variable named when neither is set.
    init(plain: String?, secret: String, environment: [String: String], http: OutboundHTTPClient) throws {
        let reader = EnvironmentReader(environment: environment)
        guard plain.flatMap(reader.optional) != nil || reader.optional(secret) != nil else {
            throw SettingsError.missing(plain.map { "\(secret) (or \($0))" } ?? secret)
        }
        self.plain = plain
        self.secret = secret
        self.environment = environment
        self.http = http
    }

    /// The credential's value.
    func value() async throws -> String {
        if let value = plain.flatMap(EnvironmentReader(environment: environment).optional) { return value }
        if let reading { return try await reading.value }
        let id = EnvironmentReader(environment: environment).optional(secret) ?? ""
        let task = Task { [environment, http] in try await SecretString.read(id, environment: environment, http: http) }
        reading = task
        do {
            return try await task.value
        } catch {
            reading = nil
            throw error
        }
    }
}
