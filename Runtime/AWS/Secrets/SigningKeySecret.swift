import AWSCalls
import AWSSigning
import GatehouseJSON
import OutboundHTTP

/// Where a deployed function's signing keys come from: a Secrets Manager secret
/// (`SIGNING_KEYS_SECRET`, its name or ARN) or an SSM SecureString parameter
/// (`SIGNING_KEYS_PARAMETER`), read once at the cold start with the function's role and put in
/// the environment the function's services read, as `SIGNING_KEYS` (in memory only: never in
/// the process's own environment, never logged). Without either variable, or with keys given
/// directly (`SIGNING_KEYS`, `SIGNING_KEYS_FILE`, as local runs give them), nothing changes.
public enum SigningKeySecret {
    /// True when `environment` names a secret or parameter to read and gives no keys directly
    /// (a local run's key file wins: the secret is the deployed source).
    public static func isNamed(in environment: [String: String]) -> Bool {
        let named = ["SIGNING_KEYS_SECRET", "SIGNING_KEYS_PARAMETER"].contains { !(environment[$0] ?? "").isEmpty }
        return named && !givesKeysDirectly(environment)
    }

    /// True when `environment` holds a key set itself (`SIGNING_KEYS`, `SIGNING_KEYS_FILE`).
    public static func givesKeysDirectly(_ environment: [String: String]) -> Bool {
        ["SIGNING_KEYS", "SIGNING_KEYS_FILE"].contains { !(environment[$0] ?? "").isEmpty }
    }

    /// `environment` with `SIGNING_KEYS` set from the secret or parameter it names.
    public static func resolve(
        _ environment: [String: String], http: OutboundHTTPClient = .shared
    ) async throws -> [String: String] {
        guard isNamed(in: environment) else { return environment }
        let secret = environment["SIGNING_KEYS_SECRET"].flatMap { $0.isEmpty ? nil : $0 }
        let parameter = environment["SIGNING_KEYS_PARAMETER"].flatMap { $0.isEmpty ? nil : $0 }
        guard let region = environment["AWS_REGION"] ?? environment["AWS_DEFAULT_REGION"],
            let credentials = AWSCredentials(environment: environment)
        else { throw SigningKeySecretError.noCredentials }
        var resolved = environment
        if let secret {
            resolved["SIGNING_KEYS"] = try await secretValue(
                secret, region: region, credentials: credentials, environment, http: http)
        } else if let parameter {
            resolved["SIGNING_KEYS"] = try await parameterValue(
                parameter, region: region, credentials: credentials, environment, http: http)
        }
        return resolved
    }

    /// Secrets Manager `GetSecretValue`: the secret's `SecretString`.
    static func secretValue(
        _ id: String, region: String, credentials: AWSCredentials, _ environment: [String: String],
        http: OutboundHTTPClient
    ) async throws -> String {
        let endpoint =
            environment["AWS_ENDPOINT_URL_SECRETS_MANAGER"] ?? "https://secretsmanager.\(region).amazonaws.com"
        let answer = try await json(
            AWSCall(
                service: "secretsmanager", region: region, endpoint: endpoint, credentials: credentials, http: http),
            target: "secretsmanager.GetSecretValue", operation: "GetSecretValue", ["SecretId": .string(id)])
        guard let value = answer["SecretString"]?.stringValue else { throw SigningKeySecretError.empty("secret") }
        return value
    }

    /// SSM `GetParameter` with decryption: the parameter's value.
    static func parameterValue(
        _ name: String, region: String, credentials: AWSCredentials, _ environment: [String: String],
        http: OutboundHTTPClient
    ) async throws -> String {
        let endpoint = environment["AWS_ENDPOINT_URL_SSM"] ?? "https://ssm.\(region).amazonaws.com"
        let answer = try await json(
            AWSCall(service: "ssm", region: region, endpoint: endpoint, credentials: credentials, http: http),
            target: "AmazonSSM.GetParameter", operation: "GetParameter",
            ["Name": .string(name), "WithDecryption": true])
        guard let value = answer["Parameter"]?["Value"]?.stringValue else {
            throw SigningKeySecretError.empty("parameter")
        }
        return value
    }

    private static func json(
        _ call: AWSCall, target: String, operation: String, _ body: [String: JSONValue]
    ) async throws -> JSONValue {
        let response = try await call.post(
            operation: operation, path: "/",
            headers: [
                (name: "content-type", value: "application/x-amz-json-1.1"), (name: "x-amz-target", value: target),
            ], body: JSONValue.object(body).serializedBytes)
        return try JSONValue(parsing: response.body)
    }
}

/// The signing keys' secret could not be read; names what, never a value.
public enum SigningKeySecretError: Error, Sendable, Equatable, CustomStringConvertible {
    case noCredentials
    case empty(String)

    public var description: String {
        switch self {
        case .noCredentials: "reading the signing keys' secret needs AWS_REGION and the role's credentials"
        case .empty(let kind): "the signing keys' \(kind) has no string value"
        }
    }
}
