import AWSSigning

/// Where and as whom the DynamoDB store calls: the region (`AWS_REGION`, as Lambda sets it),
/// the endpoint (`DYNAMODB_ENDPOINT` for a local server, else the region's), and the
/// credentials Lambda gives the function's role.
public struct DynamoDBSettings: Sendable {
    public var region: String
    public var endpoint: String
    public var credentials: AWSCredentials

    public init(region: String, endpoint: String? = nil, credentials: AWSCredentials) {
        self.region = region
        self.endpoint = endpoint ?? "https://dynamodb.\(region).amazonaws.com"
        self.credentials = credentials
    }

    /// From Lambda's variables; the error names what is missing, never a value.
    public init(environment: [String: String]) throws(DynamoDBSettingsError) {
        guard let region = environment["AWS_REGION"] ?? environment["AWS_DEFAULT_REGION"], !region.isEmpty else {
            throw .missing("AWS_REGION")
        }
        guard let credentials = AWSCredentials(environment: environment) else {
            throw .missing("AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY")
        }
        let endpoint = environment["DYNAMODB_ENDPOINT"].flatMap { $0.isEmpty ? nil : $0 }
        self.init(region: region, endpoint: endpoint, credentials: credentials)
    }
}

/// Settings the DynamoDB store cannot start without.
public enum DynamoDBSettingsError: Error, Sendable, Equatable, CustomStringConvertible {
    case missing(String)
    case invalidTables(String)

    public var description: String {
        switch self {
        case .missing(let name): "the DynamoDB store needs \(name) in the environment"
        case .invalidTables(let reason): "GATEHOUSE_TABLES: \(reason)"
        }
    }
}
