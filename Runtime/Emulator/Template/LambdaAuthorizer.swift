/// A Lambda authorizer of an HTTP API (`Auth.Authorizers` of an `AWS::Serverless::HttpApi`).
public struct LambdaAuthorizer: Sendable, Equatable {
    /// Its name in `Auth.Authorizers`, as routes name it.
    public let name: String
    /// The function that decides (`FunctionArn: {"Fn::GetAtt": [NAME, "Arn"]}`).
    public let function: String
    /// The request headers that identify the caller, lower-cased (`Identity.Headers`).
    public let identityHeaders: [String]
    /// How long a decision is reused for the same identity, in seconds (`Identity.ReauthorizeEvery`,
    /// 300 when unset; 0 turns caching off).
    public let reauthorizeEvery: Int
    /// `EnableSimpleResponses`: `{isAuthorized, context}` rather than an IAM policy.
    public let simpleResponses: Bool
}
