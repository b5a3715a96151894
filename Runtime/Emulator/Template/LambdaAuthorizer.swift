import LambdaRuntime

/// A Lambda authorizer of an API (`Auth.Authorizers` of an `AWS::Serverless::HttpApi` or
/// `AWS::Serverless::Api`).
public struct LambdaAuthorizer: Sendable, Equatable {
    /// What the authorizer function is sent (REST's `FunctionPayloadType`; HTTP APIs send REQUEST).
    public enum PayloadType: String, Sendable {
        /// `{type, authorizationToken, methodArn}`: one header's value.
        case token = "TOKEN"
        /// The request's headers, query, path and context, without its body.
        case request = "REQUEST"
    }

    /// Its name in `Auth.Authorizers`, as routes name it.
    public let name: String
    /// The function that decides (`FunctionArn: {"Fn::GetAtt": [NAME, "Arn"]}`).
    public let function: String
    /// The kind of API it belongs to.
    public let api: HTTPRoute.Kind
    public let payloadType: PayloadType
    /// The event format: 2.0 or 1.0 for an HTTP API (`AuthorizerPayloadFormatVersion`), 1.0
    /// for REST.
    public let payloadFormat: PayloadFormat
    /// The request headers that identify the caller, lower-cased (`Identity.Headers`, or
    /// `Identity.Header` for a TOKEN authorizer).
    public let identityHeaders: [String]
    /// How long a decision is reused for the same identity, in seconds (`Identity.ReauthorizeEvery`,
    /// 300 when unset; 0 turns caching off).
    public let reauthorizeEvery: Int
    /// `EnableSimpleResponses` (HTTP API, 2.0): `{isAuthorized, context}` rather than an IAM policy.
    public let simpleResponses: Bool
    /// A TOKEN authorizer's `Identity.ValidationExpression`: a token that does not match it is
    /// refused with 401 before the authorizer runs.
    public let validationExpression: String?

    public init(
        name: String, function: String, api: HTTPRoute.Kind, payloadType: PayloadType, payloadFormat: PayloadFormat,
        identityHeaders: [String], reauthorizeEvery: Int, simpleResponses: Bool, validationExpression: String? = nil
    ) {
        self.name = name
        self.function = function
        self.api = api
        self.payloadType = payloadType
        self.payloadFormat = payloadFormat
        self.identityHeaders = identityHeaders
        self.reauthorizeEvery = reauthorizeEvery
        self.simpleResponses = simpleResponses
        self.validationExpression = validationExpression
    }
}
