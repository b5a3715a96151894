import AWSCalls
import AWSSigning
import GatehouseJSON
import OutboundHTTP

/// The signing keys' public half, published for `Jwks` in an SSM parameter (a plain `String`: it
/// holds nothing secret) by `gatehouse keys publish`, so that the function that serves the keys
/// never reads the private set. `Jwks` reads it once per cold start. Deployed, the parameter is
/// named after the stack (`name(stack:)`, the template's `/gatehouse/${AWS::StackName}/public-keys`),
/// so one stack's publish never replaces another's keys.
public enum PublicKeysParameter {
    /// The variable naming the parameter (`Jwks`'s environment).
    public static let nameVariable = "PUBLIC_KEYS_PARAMETER"
    /// The variable the parameter's value is put in, for the function to read.
    public static let valueVariable = "PUBLIC_KEYS"

    /// The parameter of the stack named `stack`, as the template names it.
    public static func name(stack: String) -> String {
        "/gatehouse/\(stack)/public-keys"
    }

    /// `environment` with `PUBLIC_KEYS` set from the parameter `PUBLIC_KEYS_PARAMETER` names;
    /// unchanged without one, or with a key set given directly (`SIGNING_KEYS_FILE` or
    /// `SIGNING_KEYS`, as local runs give them, whose public members are served then: a deployed
    /// `Jwks` is given neither).
    public static func resolve(
        _ environment: [String: String], http: OutboundHTTPClient = .shared
    ) async throws -> [String: String] {
        guard isNamed(in: environment) else { return environment }
        var resolved = environment
        resolved[valueVariable] = try await read(environment, http: http)
        return resolved
    }

    /// True when `environment` names the parameter and gives no key set directly.
    public static func isNamed(in environment: [String: String]) -> Bool {
        !(environment[nameVariable] ?? "").isEmpty && !SigningKeySecret.givesKeysDirectly(environment)
    }

    /// The parameter's value, the public JWK Set's JSON: one `GetParameter` call.
    public static func read(_ environment: [String: String], http: OutboundHTTPClient = .shared) async throws -> String
    {
        let name = environment[nameVariable] ?? ""
        let (region, credentials) = try access(environment)
        return try await SigningKeySecret.parameterValue(
            name, region: region, credentials: credentials, environment, http: http)
    }

    /// Writes `jwks` (the public JWK Set's JSON) to the parameter `name`, replacing its value.
    public static func publish(
        _ jwks: String, name: String, environment: [String: String], http: OutboundHTTPClient = .shared
    ) async throws {
        let (region, credentials) = try access(environment)
        let endpoint = environment["AWS_ENDPOINT_URL_SSM"] ?? "https://ssm.\(region).amazonaws.com"
        let target = "AmazonSSM.PutParameter"
        let body: JSONValue = [
            "Name": .string(name), "Value": .string(jwks), "Type": "String", "Overwrite": true,
            "Description": "Gatehouse's public signing keys (gatehouse keys publish), served by Jwks",
        ]
        _ = try await AWSCall(service: "ssm", region: region, endpoint: endpoint, credentials: credentials, http: http)
            .post(
                operation: "PutParameter", path: "/",
                headers: [
                    (name: "content-type", value: "application/x-amz-json-1.1"), (name: "x-amz-target", value: target),
                ], body: body.serializedBytes)
    }

    private static func access(_ environment: [String: String]) throws -> (String, AWSCredentials) {
        guard let region = environment["AWS_REGION"] ?? environment["AWS_DEFAULT_REGION"],
            let credentials = AWSCredentials(environment: environment)
        else { throw PublicKeysParameterError.noCredentials }
        return (region, credentials)
    }
}

/// The public keys' parameter could not be reached; names what, never a value.
public enum PublicKeysParameterError: Error, Sendable, Equatable, CustomStringConvertible {
    case noCredentials

    public var description: String {
        "the public keys' parameter (PUBLIC_KEYS_PARAMETER) needs AWS_REGION and credentials (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY)"
    }
}
