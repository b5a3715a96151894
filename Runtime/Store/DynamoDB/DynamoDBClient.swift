import AWSCalls
import GatehouseJSON
import LambdaRuntime
import OutboundHTTP
import StoreCore

/// DynamoDB's JSON protocol over the functions' HTTPS client: `POST /` with
/// `X-Amz-Target: DynamoDB_20120810.<Operation>`, signed with SigV4. Throttling and the
/// service's own failures are tried again with capped exponential backoff and full jitter,
/// within the invocation's remaining time; anything else is answered at once.
struct DynamoDBClient: Sendable {
    let settings: DynamoDBSettings
    /// The signed POSTs, shared with every other AWS call.
    let aws: AWSCall

    init(settings: DynamoDBSettings, http: OutboundHTTPClient) {
        self.settings = settings
        aws = AWSCall(
            service: "dynamodb", region: settings.region, endpoint: settings.endpoint,
            credentials: settings.credentials, http: http)
    }
    /// Tries in all, the first included.
    static let attempts = 4
    static let baseDelayMilliseconds = 25.0
    static let maximumDelayMilliseconds = 800.0

    /// The answer to `operation` with `body`, or a `StoreError` naming the operation and table.
    func call(_ operation: String, table: String, _ body: [String: JSONValue]) async throws -> JSONValue {
        var attempt = 0
        while true {
            attempt += 1
            do {
                return try await once(operation, body: body)
            } catch let error as DynamoDBServiceError where error.isRetryable && attempt < Self.attempts {
                let ceiling = min(Self.maximumDelayMilliseconds, Self.baseDelayMilliseconds * Double(1 << attempt))
                let delay = Double.random(in: 0...ceiling)
                if let remaining = InvocationDeadline.remainingMilliseconds(), Double(remaining) < delay + 200 {
                    throw StoreError.unavailable(operation: operation, table: table, reason: Self.reason(error))
                }
                try await Task.sleep(for: .milliseconds(delay))
            } catch let error as DynamoDBServiceError {
                throw error
            } catch let error as OutboundHTTPError {
                throw StoreError.unavailable(operation: operation, table: table, reason: "\(error)")
            }
        }
    }

    /// A service error as a store error's reason: its type and message, no request detail.
    static func reason(_ error: DynamoDBServiceError) -> String { error.description }

    private func once(_ operation: String, body: [String: JSONValue]) async throws -> JSONValue {
        let response = try await aws.send(
            path: "/",
            headers: [
                (name: "content-type", value: "application/x-amz-json-1.0"),
                (name: "x-amz-target", value: "DynamoDB_20120810.\(operation)"),
            ], body: JSONValue.object(body).serializedBytes, maximumBytes: 16 << 20)
        let parsed = try? JSONValue(parsing: response.body)
        guard response.status == 200 else { throw Self.serviceError(status: response.status, body: parsed) }
        guard let parsed else {
            throw DynamoDBServiceError(status: 200, type: "MalformedAnswer", message: "", cancellationCodes: [])
        }
        return parsed
    }

    private static func serviceError(status: Int, body: JSONValue?) -> DynamoDBServiceError {
        let type = body?["__type"]?.stringValue.map { String($0.split(separator: "#").last ?? "") } ?? "HTTP\(status)"
        let message = body?["message"]?.stringValue ?? body?["Message"]?.stringValue ?? ""
        let reasons = body?["CancellationReasons"]?.arrayValue ?? []
        return DynamoDBServiceError(
            status: status, type: type, message: message,
            cancellationCodes: reasons.map { $0["Code"]?.stringValue ?? "None" },
            cancellationItems: reasons.map { $0["Item"] })
    }
}
