import GatehouseJSON
import LambdaRuntime

/// A Lambda authorizer's IAM policy response (REST APIs, and HTTP APIs without simple responses).
public struct APIGatewayAuthorizerPolicyResponse: Codable, Sendable, Equatable {
    /// The IAM policy document.
    public struct PolicyDocument: Codable, Sendable, Equatable {
        /// One policy statement; `Action` and `Resource` decode from a string or a list.
        public struct Statement: Codable, Sendable, Equatable {
            /// `Allow` or `Deny`.
            public enum Effect: String, Codable, Sendable {
                case allow = "Allow"
                case deny = "Deny"
            }

            public var action: [String]
            public var effect: Effect
            public var resource: [String]

            public init(action: [String] = ["execute-api:Invoke"], effect: Effect, resource: [String]) {
                self.action = action
                self.effect = effect
                self.resource = resource
            }

            enum CodingKeys: String, CodingKey {
                case action = "Action"
                case effect = "Effect"
                case resource = "Resource"
            }

            public init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: CodingKeys.self)
                action = try container.decodeOneOrMany(.action)
                effect = try container.decode(Effect.self, forKey: .effect)
                resource = try container.decodeOneOrMany(.resource)
            }
        }

        public var version: String
        public var statement: [Statement]

        public init(version: String = "2012-10-17", statement: [Statement]) {
            self.version = version
            self.statement = statement
        }

        enum CodingKeys: String, CodingKey {
            case version = "Version"
            case statement = "Statement"
        }
    }

    public var principalId: String
    public var policyDocument: PolicyDocument
    /// Reaches the function in `requestContext.authorizer`; values must be strings, numbers or booleans.
    public var context: [String: JSONValue]?
    public var usageIdentifierKey: String?

    public init(
        principalId: String, policyDocument: PolicyDocument, context: [String: JSONValue]? = nil,
        usageIdentifierKey: String? = nil
    ) {
        self.principalId = principalId
        self.policyDocument = policyDocument
        self.context = context
        self.usageIdentifierKey = usageIdentifierKey
    }
}
