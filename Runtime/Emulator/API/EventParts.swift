import Foundation
import GatehouseJSON
import LambdaRuntime
import Synchronization

/// What the payload 1.0 and 2.0 events and responses have in common.
enum EventParts {
    /// The query string's pairs in order: `+` is a space, then percent-encoding is undone.
    static func queryPairs(_ raw: String) -> [(name: String, value: String)] {
        raw.split(separator: "&").filter { !$0.isEmpty }.map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            return (decodeQuery(parts[0]), parts.count > 1 ? decodeQuery(parts[1]) : "")
        }
    }

    static func decodeQuery(_ text: Substring) -> String {
        let plus = text.replacingOccurrences(of: "+", with: " ")
        return plus.removingPercentEncoding ?? plus
    }

    /// The request body as the event carries it: text as it is, otherwise base64 (`binary`
    /// decides, or a body that is not UTF-8). Nil for an empty body.
    static func body(_ bytes: [UInt8], binary: Bool) -> (text: String, base64: Bool)? {
        guard !bytes.isEmpty else { return nil }
        if !binary, let text = String(validating: bytes, as: UTF8.self) { return (text, false) }
        return (Data(bytes).base64EncodedString(), true)
    }

    /// An HTTP API's rule: text media types pass as they are; anything else is binary.
    static func isText(contentType: String?) -> Bool {
        guard let type = mediaType(contentType) else { return true }
        return type.hasPrefix("text/") || type == "application/json" || type.hasSuffix("+json")
            || type == "application/xml" || type.hasSuffix("+xml") || type == "application/x-www-form-urlencoded"
            || type == "application/javascript" || type == "application/graphql"
    }

    /// A REST API's rule: binary when the media type is one of its `BinaryMediaTypes`
    /// (`image/png`, `image/*`, `*/*`).
    static func isBinary(contentType: String?, binaryMediaTypes: [String]) -> Bool {
        guard !binaryMediaTypes.isEmpty else { return false }
        let type = mediaType(contentType) ?? ""
        return binaryMediaTypes.contains { pattern in
            pattern == "*/*" || pattern == type
                || (pattern.hasSuffix("/*") && type.hasPrefix(pattern.dropLast()))
        }
    }

    private static func mediaType(_ contentType: String?) -> String? {
        contentType?.lowercased().split(separator: ";").first?.trimmingCharacters(in: .whitespaces)
    }

    /// Header values may be strings, numbers or booleans; API Gateway sends their text.
    static func headerText(_ value: JSONValue) -> String? {
        switch value {
        case .string(let text): text
        case .bool(let flag): flag ? "true" : "false"
        case .number: value.serialized
        default: nil
        }
    }

    /// A response's `body` and `isBase64Encoded`; nil when either is malformed.
    static func responseBody(_ members: [String: JSONValue]) -> [UInt8]? {
        let base64: Bool
        switch members["isBase64Encoded"] {
        case nil, .null?: base64 = false
        case .bool(let flag)?: base64 = flag
        default: return nil
        }
        switch members["body"] {
        case nil, .null?: return []
        case .string(let text)?:
            guard base64 else { return Array(text.utf8) }
            return Data(base64Encoded: text).map(Array.init)
        default: return nil
        }
    }

    /// `21/Nov/2026:16:10:00 +0000`, as `requestContext.time` has it.
    static func clf(_ seconds: Double) -> String {
        clfText.text(at: seconds)
    }

    private static let clfText = UTCSecondText { parts in
        let two = UTCSecondText.twoDigits
        return "\(two(parts.tm_mday))/\(UTCSecondText.months[Int(parts.tm_mon)])/\(parts.tm_year + 1900):"
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) +0000"
    }

    /// A REQUEST authorizer's event: a route's `event` without its body, with `type` REQUEST and
    /// the members of `extra` (what each payload version adds: ARN, identity source).
    static func requestAuthorizerEvent(from event: JSONValue, adding extra: [String: JSONValue]) -> JSONValue {
        guard case .object(var members) = event else { return event }
        members["body"] = nil
        members["isBase64Encoded"] = nil
        members["type"] = "REQUEST"
        members.merge(extra, uniquingKeysWith: { _, added in added })
        return .object(members)
    }

    /// The method ARN an authorizer is asked about: `arn:aws:execute-api:…:local/{stage}/{METHOD}/{path}`.
    static func methodARN(stage: String, method: String, path: String) -> String {
        "\(arnPrefix)/\(stage)/\(method.uppercased())/\(path.drop(while: { $0 == "/" }))"
    }

    /// The local API's ARN (API id `local`).
    static let arnPrefix = "arn:aws:execute-api:us-east-1:123456789012:local"
}
