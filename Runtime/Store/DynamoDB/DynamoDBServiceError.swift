/// An error answer of DynamoDB's JSON protocol: its `__type` (the part after `#`) and message.
struct DynamoDBServiceError: Error, Sendable, Equatable {
    let status: Int
    let type: String
    let message: String
    /// A cancelled transaction's reasons, in the order of its operations (`Code` of each, `None`
    /// for those that were fine).
    let cancellationCodes: [String]

    /// Worth another try: throttling, a limit on requests, or the service's own failure.
    var isRetryable: Bool {
        status >= 500
            || [
                "ProvisionedThroughputExceededException", "ThrottlingException", "RequestLimitExceeded",
                "InternalServerError", "ServiceUnavailable", "LimitExceededException",
            ].contains(type)
    }
}
