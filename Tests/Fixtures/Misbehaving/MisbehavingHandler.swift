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
        if event["type"] == "REQUEST" {
            // As a Lambda authorizer (simple responses): the identity says what to decide.
            let identity = event["identitySource"]?.arrayValue?.first?.stringValue ?? ""
            context.logger.info("authorizing")
            if identity.hasPrefix("allow:") {
                return ["isAuthorized": true, "context": ["userId": .string(String(identity.dropFirst(6)))]]
            }
            switch identity {
            case "deny": return ["isAuthorized": false]
            case "garbage": return ["isAuthorized": "yes"]
            default: throw InvocationError(type: "Misbehaving.Failure", message: "asked to fail")
            }
        }
        // Through API Gateway the action is the query's `action` (echo by default).
        let isHTTP = event["rawPath"] != nil
        let action =
            isHTTP ? event["queryStringParameters"]?["action"]?.stringValue ?? "echo" : event["action"]?.stringValue
        context.logger.info("misbehaving", metadata: ["action": .string(action ?? "")])
        switch action {
        case "echo":
            return event
        case "respond":
            // The request's body is the answer, as the test wrote it.
            return try JSONValue(parsing: Array((event["body"]?.stringValue ?? "null").utf8))
        case "sleep":
            let milliseconds = Int(event["queryStringParameters"]?["ms"]?.stringValue ?? "") ?? 500
            try await Task.sleep(for: .milliseconds(milliseconds))
            return event
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
}
