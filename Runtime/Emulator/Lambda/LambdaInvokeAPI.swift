import Foundation
import GatehouseJSON
import LambdaRuntime
import NIOCore

/// The Lambda `Invoke` API (`POST /2015-03-31/functions/{name}/invocations`) on the emulator's
/// warm instances: what `gatehouse start-lambda` serves, so that the AWS CLI, boto3 and the AWS
/// SDKs invoke the template's functions by name, as they do with `sam local start-lambda`.
///
/// - `X-Amz-Invocation-Type`: `RequestResponse` (the default: the function's answer, with
///   `X-Amz-Executed-Version` and, when it failed, `X-Amz-Function-Error: Unhandled` and the
///   error document), `Event` (202 at once, run in the background), `DryRun` (204).
/// - `X-Amz-Log-Type: Tail`: the last 4 KB of the invocation's log, base64, in
///   `X-Amz-Log-Result`.
/// - The function is named as AWS allows: its name, or an ARN or `123456789012:Name` with
///   an optional `$LATEST` qualifier (`?Qualifier=` too).
/// - Refusals in AWS's error shape (`x-amzn-ErrorType` and `{"Type", "message"}`): an unknown
///   function or qualifier (404 `ResourceNotFoundException`), a payload over 6 MB, 256 KB for
///   `Event` (413 `RequestTooLargeException`), a payload that is not JSON (400
///   `InvalidRequestContentException`), no free instance (429 `TooManyRequestsException`), any
///   other path (404 `UnknownOperationException`).
/// - SigV4 signatures are accepted without being checked: there is no account to check them
///   against.
public struct LambdaInvokeAPI: LocalRoutes {
    /// Where the ARNs this emulator answers with say they are.
    public static let region = "us-east-1"
    public static let account = "123456789012"
    static let prefix = "/2015-03-31/functions/"
    static let suffix = "/invocations"
    /// Lambda's limit on an asynchronous (`Event`) payload.
    static let eventPayloadBytes = 256 * 1024

    public var routeDescriptions: [String] { ["POST \(Self.prefix){name}\(Self.suffix)"] }

    public init() {}

    public func answer(_ request: APIRequest, gateway: LocalAPIGateway) async -> APIResponse? {
        guard request.method == "POST", request.rawPath.hasPrefix(Self.prefix), request.rawPath.hasSuffix(Self.suffix),
            request.rawPath.count > Self.prefix.count + Self.suffix.count
        else {
            return Self.refusal(
                404, "UnknownOperationException", "Unknown operation \(request.method) \(request.rawPath)")
        }
        let named = String(request.rawPath.dropFirst(Self.prefix.count).dropLast(Self.suffix.count))
        guard let name = Self.functionName(named.removingPercentEncoding ?? named, query: request.rawQuery),
            let pool = gateway.pools[name]
        else {
            return Self.refusal(404, "ResourceNotFoundException", "Function not found: \(Self.arn(named))")
        }
        let type = request.values(of: "x-amz-invocation-type").first ?? "RequestResponse"
        let limit = type == "Event" ? Self.eventPayloadBytes : PayloadLimits.synchronousPayloadBytes
        guard request.body.count <= limit else {
            return Self.refusal(
                413, "RequestTooLargeException", "Request must be smaller than \(limit) bytes for the Invoke operation")
        }
        let payload = request.body.isEmpty ? Array("{}".utf8) : request.body
        guard (try? JSONValue(parsing: payload)) != nil else {
            return Self.refusal(
                400, "InvalidRequestContentException", "Could not parse request body into json: unexpected content")
        }
        switch type {
        case "RequestResponse":
            let tail = request.values(of: "x-amz-log-type").first == "Tail"
            return await Self.invoke(pool, payload: payload, tail: tail)
        case "Event":
            Task { _ = try? await pool.invoke(ByteBuffer(bytes: payload), requestID: RequestID.make()) }
            return APIResponse(status: 202, headers: Self.headers(requestID: RequestID.make()))
        case "DryRun":
            return APIResponse(status: 204, headers: Self.headers(requestID: RequestID.make()))
        default:
            return Self.refusal(
                400, "InvalidParameterValueException",
                "X-Amz-Invocation-Type must be RequestResponse, Event or DryRun")
        }
    }

    /// Runs `payload` and answers with the function's outcome.
    static func invoke(_ pool: FunctionPool, payload: [UInt8], tail: Bool) async -> APIResponse {
        let requestID = RequestID.make()
        let started = ContinuousClock.now
        let result: FunctionPool.Result?
        do {
            result = try await pool.invoke(ByteBuffer(bytes: payload), requestID: requestID, capturingLog: tail)
        } catch {
            return refusal(502, "ServiceException", "The function could not start: \(error)")
        }
        guard let result else {
            return refusal(
                429, "TooManyRequestsException", "Rate Exceeded.",
                extra: ["Reason": "ReservedFunctionConcurrentInvocationLimitExceeded"])
        }
        var headers = self.headers(requestID: requestID)
        headers.append(.init("content-type", "application/json"))
        if result.outcome.isError { headers.append(.init("x-amz-function-error", "Unhandled")) }
        if tail {
            let log = TailLog(requestID: requestID, lines: result.log ?? [], duration: ContinuousClock.now - started)
            headers.append(.init("x-amz-log-result", log.base64))
        }
        return APIResponse(
            status: 200, headers: headers, body: Array(buffer: result.outcome.payload(requestID: requestID)))
    }

    /// The function a path names: a name, `Name:$LATEST`, `123456789012:Name`, or an ARN;
    /// nil for a qualifier other than `$LATEST` (only the unpublished version runs here).
    static func functionName(_ named: String, query: String) -> String? {
        var parts = named.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        if parts.first == "arn" {
            guard parts.count >= 7, parts[2] == "lambda", parts[5] == "function" else { return nil }
            parts = Array(parts[6...])
        } else if parts.count >= 2, parts[0].allSatisfy(\.isNumber) {
            parts = Array(parts[1...])
        }
        let queried = query.split(separator: "&").first { $0.hasPrefix("Qualifier=") }.map { String($0.dropFirst(10)) }
        guard let name = parts.first, !name.isEmpty, parts.count <= 2 else { return nil }
        for qualifier in [parts.count == 2 ? parts[1] : nil, queried].compactMap({ $0 }) {
            guard ["$LATEST", "%24LATEST"].contains(qualifier) else { return nil }
        }
        return name
    }

    /// The function of `template` that `named` (as a path names it: a name, an ARN, `Name:$LATEST`)
    /// is; nil for none. How the CLI tells whether a function the template's functions invoke
    /// (the access-token hook) runs here.
    public static func function(named: String, in template: Template) -> FunctionDefinition? {
        functionName(named, query: "").flatMap { template.functions[$0] }
    }

    static func arn(_ name: String) -> String { "arn:aws:lambda:\(region):\(account):function:\(name)" }

    static func headers(requestID: String) -> [APIResponse.HeaderLine] {
        [.init("x-amzn-requestid", requestID), .init("x-amz-executed-version", "$LATEST")]
    }

    /// AWS's error answer: the type in `x-amzn-ErrorType`, `{"Type": "User", "message": ...}`.
    static func refusal(
        _ status: Int, _ type: String, _ message: String, extra: [String: JSONValue] = [:]
    ) -> APIResponse {
        var body: [String: JSONValue] = ["Type": status >= 500 ? "Service" : "User", "message": .string(message)]
        body.merge(extra) { $1 }
        return APIResponse(
            status: status,
            headers: [
                .init("content-type", "application/json"), .init("x-amzn-errortype", type),
                .init("x-amzn-requestid", RequestID.make()),
            ], body: Array(JSONValue.object(body).serialized.utf8))
    }
}
