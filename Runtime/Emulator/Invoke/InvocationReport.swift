/// The `START`, `END` and `REPORT` lines Lambda writes around an invocation's logs.
public struct InvocationReport: Sendable {
    public let requestID: String
    /// From hand-out to the result, in milliseconds.
    public let durationMilliseconds: Double
    public let memorySizeMB: Int
    /// Peak resident memory of the process, in MB.
    public let maxMemoryUsedMB: Int
    /// From spawn to the first `/next`, for a cold start.
    public let initDurationMilliseconds: Double?

    public var startLine: String { Self.startLine(requestID: requestID) }

    /// Written when the runtime takes the event, before the duration is known.
    public static func startLine(requestID: String) -> String { "START RequestId: \(requestID) Version: $LATEST" }
    public var endLine: String { "END RequestId: \(requestID)" }

    /// Billed time is the duration rounded up to the next millisecond, as Lambda bills it.
    public var billedDurationMilliseconds: Int { max(1, Int(durationMilliseconds.rounded(.up))) }

    public var reportLine: String {
        var line =
            "REPORT RequestId: \(requestID)\tDuration: \(Self.format(durationMilliseconds)) ms\t"
            + "Billed Duration: \(billedDurationMilliseconds) ms\tMemory Size: \(memorySizeMB) MB\t"
            + "Max Memory Used: \(maxMemoryUsedMB) MB"
        if let initDurationMilliseconds {
            line += "\tInit Duration: \(Self.format(initDurationMilliseconds)) ms"
        }
        return line
    }

    static func format(_ milliseconds: Double) -> String {
        let hundredths = Int((milliseconds * 100).rounded())
        let fraction = hundredths % 100
        return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction)"
    }
}
