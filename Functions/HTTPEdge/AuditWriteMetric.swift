import GatehouseJSON

/// A failed audit write (`AuditLog`), counted as the CloudWatch Embedded Metric Format line
/// `AuditWriteFailures` = 1 (no dimensions), written on standard error as `RequestMetric`'s
/// are, so an operator can alarm on events that were not recorded. Nothing in it comes from
/// the request or the event.
public enum AuditWriteMetric {
    public static let name = "AuditWriteFailures"

    /// The EMF line (without its newline) at `timestamp` (milliseconds since 1970).
    public static func line(namespace: String, timestamp: Int) -> String {
        var line: [String: JSONValue] = [
            "_aws": [
                "Timestamp": .number(Double(timestamp)),
                "CloudWatchMetrics": [
                    [
                        "Namespace": .string(namespace), "Dimensions": [[]],
                        "Metrics": [["Name": .string(name), "Unit": "Count"]],
                    ]
                ],
            ]
        ]
        line[name] = 1
        return JSONValue.object(line).serialized
    }
}
