import AWSCalls
import AWSSigning
import AuthKit
import OutboundHTTP

/// Lambda's `Invoke` API (`POST /2015-03-31/functions/{name}/invocations`, a synchronous
/// `RequestResponse` invocation) signed with the function's role: how a function invokes the
/// access-token hook. Lambda's region and credentials come from the environment, and
/// `AWS_ENDPOINT_URL_LAMBDA` names a local endpoint (as the AWS SDKs read it; `gatehouse
/// start-api` sets it to its own Invoke API when the hook is a function of the template). Nothing
/// is read or called until the first invocation, so a cold start makes no call.
public struct LambdaInvoker: FunctionInvoker {
    /// The variable naming a local endpoint, the AWS SDKs' name for Lambda's.
    public static let endpointVariable = "AWS_ENDPOINT_URL_LAMBDA"
    /// How long an invocation may take, as Supabase allows its HTTP hooks: 5 s (never past the
    /// invocation's own deadline).
    public static let timeout = Duration.seconds(5)

    let environment: [String: String]
    let http: OutboundHTTPClient

    public init(environment: [String: String], http: OutboundHTTPClient = .shared) {
        self.environment = environment
        self.http = http
    }

    /// The function's answer; `FunctionInvocationError` for a function error (its type only), a
    /// late or too large answer, or a refusal by Lambda (its error code only).
    public func invoke(_ function: String, payload: [UInt8]) async throws -> [UInt8] {
        guard let region = environment["AWS_REGION"] ?? environment["AWS_DEFAULT_REGION"],
            let credentials = AWSCredentials(environment: environment)
        else { throw FunctionInvocationError.unreachable("no AWS_REGION or credentials") }
        let endpoint = environment[Self.endpointVariable].flatMap { $0.isEmpty ? nil : $0 }
        let call = AWSCall(
            service: "lambda", region: region, endpoint: endpoint ?? "https://lambda.\(region).amazonaws.com",
            credentials: credentials, http: http)
        let response: OutboundResponse
        do {
            response = try await call.send(
                path: Self.path(function), headers: [(name: "content-type", value: "application/json")], body: payload,
                maximumBytes: AccessTokenHook.answerLimit, timeout: Self.timeout)
        } catch let error as OutboundHTTPError {
            throw Self.failure(error)
        }
        return try Self.answer(response)
    }

    /// The function's answer in `response`, or why there is none.
    static func answer(_ response: OutboundResponse) throws(FunctionInvocationError) -> [UInt8] {
        guard response.status == 200 else {
            // Lambda names its error in `x-amzn-ErrorType` (`Type:url` at times), its body a message.
            let code = response.header("x-amzn-errortype").map { String($0.prefix { $0 != ":" }.prefix(64)) }
            throw .unreachable("Lambda Invoke answered \(response.status) \(code ?? AWSCall.code(response.body))")
        }
        if let type = response.header("x-amz-function-error") {
            throw .functionFailed(type: type.isEmpty ? "Unhandled" : String(type.prefix(64)))
        }
        return response.body
    }

    static func failure(_ error: OutboundHTTPError) -> FunctionInvocationError {
        switch error {
        case .timedOut: .timedOut
        case .tooLarge: .answerTooLarge
        default: .unreachable("\(error)")
        }
    }

    /// The Invoke path for `function` (a name, `Name:qualifier` or an ARN), encoded as botocore
    /// encodes a path parameter: all but unreserved characters.
    static func path(_ function: String) -> String {
        var encoded = ""
        for byte in function.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."),
                UInt8(ascii: "~"):
                encoded.append(Character(Unicode.Scalar(byte)))
            default:
                encoded += byte < 0x10 ? "%0" : "%"
                encoded += String(byte, radix: 16, uppercase: true)
            }
        }
        return "/2015-03-31/functions/\(encoded)/invocations"
    }
}
