import GatehouseJSON
import LambdaRuntime

/// What a Lambda authorizer answered: a simple decision (HTTP API, `EnableSimpleResponses`) or
/// an IAM policy, which is judged against each request's method ARN, so one cached policy can
/// allow one route and not another, as in API Gateway.
public enum AuthorizerAnswer: Sendable, Equatable {
    case simple(isAuthorized: Bool, context: [String: JSONValue])
    case policy(principalID: String, statements: [PolicyStatement], context: [String: JSONValue])

    /// One `Statement` of the policy document.
    public struct PolicyStatement: Sendable, Equatable {
        public let allows: Bool
        /// Action patterns: `execute-api:Invoke`, `execute-api:*`, `*`.
        public let actions: [String]
        /// Method ARN patterns, with `*` and `?` wildcards.
        public let resources: [String]

        public init(allows: Bool, actions: [String], resources: [String]) {
            self.allows = allows
            self.actions = actions
            self.resources = resources
        }
    }

    /// The outcome for a request on `methodARN`.
    public enum Verdict: Sendable, Equatable {
        case allowed
        /// A statement denies it.
        case explicitlyDenied
        /// Nothing allows it (or `isAuthorized: false`).
        case denied
    }

    /// The context to pass on to the function.
    public var context: [String: JSONValue] {
        switch self {
        case .simple(_, let context), .policy(_, _, let context): context
        }
    }

    public func verdict(for methodARN: String) -> Verdict {
        switch self {
        case .simple(let allowed, _): return allowed ? .allowed : .denied
        case .policy(_, let statements, _):
            let applying = statements.filter { statement in
                statement.actions.contains { Self.matches($0, "execute-api:Invoke") }
                    && statement.resources.contains { Self.matches($0, methodARN) }
            }
            if applying.contains(where: { !$0.allows }) { return .explicitlyDenied }
            return applying.isEmpty ? .denied : .allowed
        }
    }

    /// The answer in `payload`; nil when it is not one API Gateway accepts (it then answers
    /// 500): with `simple`, `{"isAuthorized": Bool, "context": {...}}`; otherwise
    /// `{"principalId", "policyDocument": {"Statement": [...]}, "context": {...}}` with a
    /// context of strings, numbers and booleans only.
    public static func parse(_ payload: [UInt8], simple: Bool) -> AuthorizerAnswer? {
        guard case .object(let answer)? = try? JSONValue(parsing: payload) else { return nil }
        let context: [String: JSONValue]
        switch answer["context"] {
        case nil, .null?: context = [:]
        case .object(let object)?: context = object
        default: return nil
        }
        if simple {
            guard case .bool(let allowed)? = answer["isAuthorized"] else { return nil }
            return .simple(isAuthorized: allowed, context: context)
        }
        guard case .string(let principal)? = answer["principalId"],
            case .array(let list)? = answer["policyDocument"]?["Statement"],
            context.values.allSatisfy({ $0.stringValue != nil || $0.numberValue != nil || $0.boolValue != nil })
        else { return nil }
        var statements: [PolicyStatement] = []
        for item in list {
            guard let effect = item["Effect"]?.stringValue, ["Allow", "Deny"].contains(effect),
                let actions = strings(item["Action"]), let resources = strings(item["Resource"])
            else { return nil }
            statements.append(PolicyStatement(allows: effect == "Allow", actions: actions, resources: resources))
        }
        return .policy(principalID: principal, statements: statements, context: context)
    }

    /// A string or a list of strings, as IAM allows for `Action` and `Resource`.
    private static func strings(_ value: JSONValue?) -> [String]? {
        switch value {
        case .string(let text)?: return [text]
        case .array(let items)?:
            let texts = items.compactMap(\.stringValue)
            return texts.count == items.count ? texts : nil
        default: return nil
        }
    }

    /// IAM's wildcard match: `*` is any run of characters (`/` included), `?` any one.
    static func matches(_ pattern: String, _ text: String) -> Bool {
        let pattern = Array(pattern.utf8)
        let text = Array(text.utf8)
        var p = 0
        var t = 0
        var star: Int?
        var resume = 0
        while t < text.count {
            if p < pattern.count, pattern[p] == UInt8(ascii: "?") || pattern[p] == text[t] {
                p += 1
                t += 1
            } else if p < pattern.count, pattern[p] == UInt8(ascii: "*") {
                star = p
                resume = t
                p += 1
            } else if let star {
                p = star + 1
                resume += 1
                t = resume
            } else {
                return false
            }
        }
        while p < pattern.count, pattern[p] == UInt8(ascii: "*") { p += 1 }
        return p == pattern.count
    }
}
