import GatehouseJSON
import LambdaRuntime

/// A Lambda authorizer's event, in any of API Gateway's shapes, read as the HTTP functions read
/// theirs: only the members the Authorizer uses, every other one skipped whatever its type.
///
/// - HTTP API REQUEST, payload 2.0 (`"version": "2.0"`): the `Authorization` header; answered
///   with a simple response.
/// - REST TOKEN: `authorizationToken` and `methodArn`; answered with an IAM policy.
/// - REST REQUEST (or an HTTP API's, payload 1.0): the `Authorization` header, whatever the case
///   of its name, and `methodArn`; answered with an IAM policy.
///
/// A token that is missing or not a string is no token (the decision is a refusal); only an
/// event that is not a JSON object, or a policy event without a `methodArn` to answer for, fails
/// the invocation.
public struct AuthorizerEvent: Sendable, Equatable {
    /// The `Authorization` header's value (a TOKEN event's `authorizationToken`); nil when the
    /// event has none that is a string.
    public var authorization: String?
    /// The method ARN an IAM policy answers for; nil for payload 2.0, which takes a simple answer.
    public var methodARN: String?

    public init(authorization: String?, methodARN: String?) {
        self.authorization = authorization
        self.methodARN = methodARN
    }

    /// The event in `bytes`: payload 2.0 by its `version`, otherwise an IAM policy's by its
    /// `methodArn`.
    public init(event bytes: UnsafeBufferPointer<UInt8>) throws(InvocationError) {
        var members = Members()
        do {
            try JSONReader.read(bytes) { reader in
                try reader.beginObject()
                while let name = try reader.nextMember() { try members.read(name, from: &reader) }
            }
        } catch {
            throw InvocationError(type: "InvalidEvent", message: "not an API Gateway authorizer event: \(error)")
        }
        if members.version == PayloadFormat.v2.rawValue {
            self.init(authorization: members.header, methodARN: nil)
            return
        }
        guard let methodARN = members.methodARN else {
            throw InvocationError(
                type: "InvalidEvent",
                message: "not an API Gateway authorizer event: neither \"version\": \"2.0\" nor a methodArn")
        }
        self.init(authorization: members.authorizationToken ?? members.header, methodARN: methodARN)
    }
}

/// The members read so far; a string member of another type is not there.
private struct Members {
    var version: String?
    var methodARN: String?
    var authorizationToken: String?
    /// The `Authorization` header, its name in any case.
    var header: String?

    mutating func read(_ name: JSONReader.Name, from reader: inout JSONReader) throws {
        if name.is("version") {
            version = try reader.readStringOrSkip()
        } else if name.is("methodArn") {
            methodARN = try reader.readStringOrSkip()
        } else if name.is("authorizationToken") {
            authorizationToken = try reader.readStringOrSkip()
        } else if name.is("headers") {
            try readHeaders(from: &reader)
        } else {
            try reader.skipValue()
        }
    }

    /// The `Authorization` header from `headers`, when that is an object; every other header,
    /// and a value that is not a string, skipped.
    private mutating func readHeaders(from reader: inout JSONReader) throws {
        do {
            try reader.beginObject()
        } catch is JSONReader.Mismatch {
            // `null` or another type: no headers. The reader is still at the value.
            return try reader.skipValue()
        }
        while let name = try reader.nextMember() {
            if try name.is("authorization") || name.is("Authorization")
                || name.text().lowercased() == "authorization"
            {
                // A repeated name in another case keeps the last string.
                if let value = try reader.readStringOrSkip() { header = value }
            } else {
                try reader.skipValue()
            }
        }
    }
}
