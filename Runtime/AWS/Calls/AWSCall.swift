import AWSSigning
import GatehouseJSON
import OutboundHTTP

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One signed call to an AWS API over the functions' HTTPS client; an answer other than 200 is
/// an `AWSCallError` naming the service, the operation and AWS's error code, never the request.
public struct AWSCall: Sendable {
    public let service: String
    public let region: String
    public let endpoint: String
    public let credentials: AWSCredentials
    public let http: OutboundHTTPClient

    public init(
        service: String, region: String, endpoint: String, credentials: AWSCredentials,
        http: OutboundHTTPClient = .shared
    ) {
        self.service = service
        self.region = region
        self.endpoint = endpoint
        self.credentials = credentials
        self.http = http
    }

    /// POSTs `body` to `path`, signed; the answer when it is a 200.
    public func post(
        operation: String, path: String, contentType: String, body: [UInt8]
    ) async throws -> OutboundResponse {
        try await post(
            operation: operation, path: path, headers: [(name: "content-type", value: contentType)], body: body)
    }

    /// POSTs `body` to `path` with `headers`, signed; the answer when it is a 200.
    public func post(
        operation: String, path: String, headers: [(name: String, value: String)], body: [UInt8]
    ) async throws -> OutboundResponse {
        let response: OutboundResponse
        do {
            response = try await send(path: path, headers: headers, body: body)
        } catch let error as OutboundHTTPError {
            throw AWSCallError(service: service, operation: operation, status: 0, code: "\(error)")
        }
        guard response.status == 200 else {
            throw AWSCallError(
                service: service, operation: operation, status: response.status, code: Self.code(response.body))
        }
        return response
    }

    /// POSTs `body` to `path` with `headers`, signed at the wall clock's time, and returns the
    /// answer whatever its status (for a caller that reads AWS's error body itself), within
    /// `timeout` when given; a transport failure is the client's `OutboundHTTPError`.
    public func send(
        path: String, headers: [(name: String, value: String)], body: [UInt8], maximumBytes: Int? = nil,
        timeout: Duration? = nil
    ) async throws -> OutboundResponse {
        var request = SigV4Signer.Request(method: "POST", url: endpoint + path, headers: headers, body: body)
        let signer = SigV4Signer(credentials: credentials, region: region, service: service)
        request.headers += try signer.signingHeaders(
            for: request, amzDate: AmzDate.format(epochSeconds: Date().timeIntervalSince1970))
        return try await http.sendOnOwnThread(
            OutboundRequest(method: "POST", url: request.url, headers: request.headers, body: body), timeout: timeout,
            maximumBytes: maximumBytes)
    }

    /// AWS's error code from a JSON (`__type`, `code`) or XML (`<Code>`) error body.
    public static func code(_ body: [UInt8]) -> String {
        if let json = try? JSONValue(parsing: body) {
            let type = json["__type"]?.stringValue ?? json["code"]?.stringValue ?? json["Code"]?.stringValue
            if let type { return String(type.split(separator: "#").last ?? "") }
        }
        let text = String(decoding: body.prefix(4096), as: UTF8.self)
        let parts = text.split(separator: "<Code>", maxSplits: 1, omittingEmptySubsequences: false)
        if parts.count == 2, let code = parts[1].split(separator: "</Code>", maxSplits: 1).first {
            return String(code)
        }
        return "unknown"
    }
}

/// A call to SES or SNS that failed: which, and AWS's error code.
public struct AWSCallError: Error, Sendable, Equatable, CustomStringConvertible {
    public let service: String
    public let operation: String
    public let status: Int
    public let code: String

    public var description: String {
        status == 0
            ? "\(service) \(operation) failed: \(code)" : "\(service) \(operation) answered \(status) \(code)"
    }
}
