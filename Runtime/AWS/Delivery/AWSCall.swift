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
struct AWSCall: Sendable {
    let service: String
    let region: String
    let endpoint: String
    let credentials: AWSCredentials
    let http: OutboundHTTPClient

    func post(
        operation: String, path: String, contentType: String, body: [UInt8]
    ) async throws -> OutboundResponse {
        var request = SigV4Signer.Request(
            method: "POST", url: endpoint + path, headers: [(name: "content-type", value: contentType)], body: body)
        let signer = SigV4Signer(credentials: credentials, region: region, service: service)
        request.headers += try signer.signingHeaders(
            for: request, amzDate: AmzDate.format(epochSeconds: Date().timeIntervalSince1970))
        let response: OutboundResponse
        do {
            response = try await http.sendOnOwnThread(
                OutboundRequest(method: "POST", url: request.url, headers: request.headers, body: body))
        } catch {
            throw AWSCallError(service: service, operation: operation, status: 0, code: "\(error)")
        }
        guard response.status == 200 else {
            throw AWSCallError(
                service: service, operation: operation, status: response.status, code: Self.code(response.body))
        }
        return response
    }

    /// AWS's error code from a JSON (`__type`, `code`) or XML (`<Code>`) error body.
    static func code(_ body: [UInt8]) -> String {
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
