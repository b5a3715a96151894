import GatehouseJSON
import LambdaEvents
import LambdaRuntime
import Logging

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// A test function that does what its event asks, including every way a function can fail.
/// It lives under Tests/ so that no deployable function carries these behaviours.
struct MisbehavingHandler: LambdaHandler {
    func handle(_ event: JSONValue, context: LambdaContext) async throws -> JSONValue {
        if let type = event["type"]?.stringValue, ["REQUEST", "TOKEN"].contains(type) {
            return try authorize(event, context: context)
        }
        // Through API Gateway the action is the query's `action` (echo by default).
        // Payload 1.0 answers need a statusCode: the echoed event is then the body.
        let payload1 = event["httpMethod"] != nil
        let isHTTP = event["rawPath"] != nil || payload1
        let action =
            isHTTP ? event["queryStringParameters"]?["action"]?.stringValue ?? "echo" : event["action"]?.stringValue
        context.logger.info("misbehaving", metadata: ["action": .string(action ?? "")])
        switch action {
        case "echo":
            return payload1 ? Self.wrapped(event) : event
        case "respond":
            // The request's body is the answer, as the test wrote it.
            return try JSONValue(parsing: Array((event["body"]?.stringValue ?? "null").utf8))
        case "sleep":
            let milliseconds = Int(event["queryStringParameters"]?["ms"]?.stringValue ?? "") ?? 500
            try await Task.sleep(for: .milliseconds(milliseconds))
            return payload1 ? Self.wrapped(event) : event
        case "garbage":
            return ["statusCode": "not a number"]
        case "context":
            return [
                "requestId": .string(context.requestID),
                "functionArn": .string(context.invokedFunctionARN),
                "remainingMs": .number(Double(context.remainingMilliseconds())),
                "traceEnv": ProcessInfo.processInfo.environment["_X_AMZN_TRACE_ID"].map(JSONValue.string) ?? .null,
                "cwd": .string(FileManager.default.currentDirectoryPath),
            ]
        case "env":
            let name = event["name"]?.stringValue ?? ""
            return ProcessInfo.processInfo.environment[name].map(JSONValue.string) ?? .null
        case "spawn":
            // Leaves a grandchild behind, as a helper or a crash backtracer would.
            var pid: pid_t = 0
            let argv: [UnsafeMutablePointer<CChar>?] = [strdup("/bin/sleep"), strdup("300"), nil]
            defer { argv.forEach { free($0) } }
            guard posix_spawn(&pid, "/bin/sleep", nil, nil, argv, environ) == 0 else {
                throw InvocationError(type: "Misbehaving.SpawnFailed", message: "could not start /bin/sleep")
            }
            return .number(Double(pid))
        case "exe":
            // Which file this process runs: the inode behind /proc/self/exe.
            var info = stat()
            guard stat("/proc/self/exe", &info) == 0 else { return nil }
            return .number(Double(info.st_ino))
        case "crash":
            exit(3)
        case "abort":
            abort()
        case "hang":
            try await Task.sleep(for: .seconds(3600))
            return nil
        case "error":
            throw InvocationError(type: "Misbehaving.Failure", message: "asked to fail")
        case "big":
            return .string(String(repeating: "x", count: PayloadLimits.synchronousPayloadBytes))
        default:
            throw InvocationError(type: "Misbehaving.UnknownAction", message: "no such action")
        }
    }

    /// As a Lambda authorizer, the identity says what to decide: `allow:NAME`, `deny`,
    /// `garbage` (an answer API Gateway cannot use), `unauthorized` (the `Unauthorized` error),
    /// `scoped:NAME` (a policy for the asked-for method ARN only); anything else fails. A
    /// simple answer for an HTTP API 2.0 event, an IAM policy for one with a `methodArn`.
    func authorize(_ event: JSONValue, context: LambdaContext) throws -> JSONValue {
        let identity: String
        if let token = event["authorizationToken"]?.stringValue {
            identity = token
        } else if let list = event["identitySource"]?.arrayValue {
            identity = list.first?.stringValue ?? ""
        } else if let joined = event["identitySource"]?.stringValue {
            identity = joined
        } else {
            identity = event["headers"]?.objectValue?.first { $0.key.lowercased() == "x-key" }?.value.stringValue ?? ""
        }
        context.logger.info("authorizing")
        if identity == "unauthorized" { throw InvocationError(type: "Unauthorized", message: "Unauthorized") }
        guard let methodARN = event["methodArn"]?.stringValue else {
            if identity.hasPrefix("allow:") {
                return ["isAuthorized": true, "context": ["userId": .string(String(identity.dropFirst(6)))]]
            }
            switch identity {
            case "deny": return ["isAuthorized": false]
            case "garbage": return ["isAuthorized": "yes"]
            default: throw InvocationError(type: "Misbehaving.Failure", message: "asked to fail")
            }
        }
        // arn:aws:execute-api:region:account:api/stage/METHOD/path: the whole stage is `…/stage/*`.
        let parts = methodARN.split(separator: "/", maxSplits: 2, omittingEmptySubsequences: false)
        let stage = parts.count >= 2 ? "\(parts[0])/\(parts[1])/*" : methodARN
        func policy(_ effect: String, _ resource: String, user: String) -> JSONValue {
            [
                "principalId": .string(user),
                "policyDocument": [
                    "Version": "2012-10-17",
                    "Statement": [
                        ["Action": "execute-api:Invoke", "Effect": .string(effect), "Resource": .string(resource)]
                    ],
                ],
                "context": ["userId": .string(user), "admin": false, "level": 3],
            ]
        }
        if identity.hasPrefix("allow:") { return policy("Allow", stage, user: String(identity.dropFirst(6))) }
        if identity.hasPrefix("scoped:") { return policy("Allow", methodARN, user: String(identity.dropFirst(7))) }
        switch identity {
        case "deny": return policy("Deny", stage, user: "nobody")
        case "garbage": return ["principalId": "x", "policyDocument": "allow"]
        default: throw InvocationError(type: "Misbehaving.Failure", message: "asked to fail")
        }
    }

    /// `event` as the JSON body of a 200, the answer payload 1.0 requires.
    static func wrapped(_ event: JSONValue) -> JSONValue {
        ["statusCode": 200, "headers": ["Content-Type": "application/json"], "body": .string(event.serialized)]
    }
}
