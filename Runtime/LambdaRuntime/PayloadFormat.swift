import GatehouseJSON

/// Which of API Gateway's proxy payload formats an event is in, or a route sends: the one
/// place that knows how `"1.0"` and `"2.0"` are spelled and how an event shows its format.
public enum PayloadFormat: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// Version 1.0: a REST API's `aws-proxy` event (no `version` member), or an HTTP API route
    /// set to payload 1.0 (`"version": "1.0"`). Answered with `APIGatewayResponse`.
    case v1 = "1.0"
    /// Version 2.0: an HTTP API's default. Answered with `APIGatewayV2Response`.
    case v2 = "2.0"

    /// The format a template's `PayloadFormatVersion` names; nil for anything else.
    public init?(version: String) {
        self.init(rawValue: version)
    }

    /// The format of an event's JSON text: its `version` member when it has one, otherwise
    /// version 1.0 when it has REST's `httpMethod`. Reads only as far as it needs to: the
    /// members before `version` (API Gateway writes it first).
    public init(event bytes: UnsafeBufferPointer<UInt8>) throws(PayloadFormatError) {
        let found: PayloadFormat?
        do {
            found = try JSONReader.readPrefix(bytes) { reader in try Self.scan(&reader) }
        } catch let error as PayloadFormatError {
            throw error
        } catch {
            throw .notAnObject
        }
        guard let found else { throw .unknown }
        self = found
    }

    public var description: String { rawValue }

    /// Walks the top-level members until one tells the format.
    private static func scan(_ reader: inout JSONReader) throws -> PayloadFormat? {
        try reader.beginObject()
        var restMethod = false
        while let name = try reader.nextMember() {
            if name.is("version") {
                let version = try? reader.readString()
                guard let version, let format = PayloadFormat(version: version) else {
                    throw PayloadFormatError.unsupportedVersion
                }
                return format
            } else if name.is("httpMethod") {
                restMethod = true
            }
            try reader.skipValue()
        }
        return restMethod ? .v1 : nil
    }
}

/// Why an event's payload format could not be told.
public enum PayloadFormatError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The event is not a JSON object.
    case notAnObject
    /// `version` is not `"1.0"` or `"2.0"`.
    case unsupportedVersion
    /// Neither a `version` nor REST's `httpMethod`: not an API Gateway proxy event.
    case unknown

    public var description: String {
        switch self {
        case .notAnObject: "the event is not a JSON object"
        case .unsupportedVersion: "the event's version is not \"1.0\" or \"2.0\""
        case .unknown: "not an API Gateway proxy event (no version, no httpMethod)"
        }
    }
}
