import GatehouseJSON

/// An error answer of DynamoDB's JSON protocol: its `__type` (the part after `#`) and message.
struct DynamoDBServiceError: Error, Sendable, Equatable {
    let status: Int
    let type: String
    let message: String
    /// A cancelled transaction's reasons, in the order of its operations (`Code` of each, `None`
    /// for those that were fine).
    let cancellationCodes: [String]
    /// The items a cancelled transaction's reasons carry, in the same order: the item an
    /// operation asking for `ReturnValuesOnConditionCheckFailure` found when its condition
    /// failed (nil when it found none, or the server does not send them).
    var cancellationItems: [JSONValue?] = []

    /// Worth another try: throttling, a limit on requests, the service's own failure, or a
    /// conflict with a transaction in flight on the same item, which wrote nothing: a single
    /// write's `TransactionConflictException`, or a transaction canceled for conflicts and
    /// throttling alone (never one with a failed condition, which is an answer).
    var isRetryable: Bool {
        if status >= 500 || Self.retryableTypes.contains(type) { return true }
        guard type == "TransactionCanceledException", !cancellationCodes.isEmpty else { return false }
        return cancellationCodes.allSatisfy(Self.transientCancellations.contains)
            && cancellationCodes.contains { $0 != "None" }
    }

    private static let retryableTypes: Set = [
        "ProvisionedThroughputExceededException", "ThrottlingException", "RequestLimitExceeded",
        "InternalServerError", "ServiceUnavailable", "LimitExceededException", "TransactionConflictException",
    ]

    /// A canceled transaction's reasons that say nothing about its items' state.
    private static let transientCancellations: Set = [
        "None", "TransactionConflict", "ThrottlingError", "ProvisionedThroughputExceeded",
    ]
}

extension DynamoDBServiceError: CustomStringConvertible {
    /// The status, type and message: never the items a cancellation carries, which may hold
    /// hashes of secrets.
    var description: String {
        "\(status) \(type)\(message.isEmpty ? "" : ": \(message.prefix(200))")"
    }
}
