import Foundation

/// An invocation's log as Lambda's `X-Amz-Log-Type: Tail` returns it: the function's lines
/// between Lambda's `START` and `END`/`REPORT` lines, the last 4 KB of it, base64.
struct TailLog {
    let requestID: String
    let lines: [UInt8]
    let duration: Duration

    var text: String {
        let milliseconds = Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
        let shown = (milliseconds * 100).rounded() / 100
        return "START RequestId: \(requestID) Version: $LATEST\n" + String(decoding: lines, as: UTF8.self)
            + "END RequestId: \(requestID)\n"
            + "REPORT RequestId: \(requestID)\tDuration: \(shown) ms\tBilled Duration: \(Int(milliseconds.rounded(.up))) ms\n"
    }

    /// The last 4 KB of `text`, base64.
    var base64: String {
        Data(Array(text.utf8).suffix(LogPrefixer.tailBytes)).base64EncodedString()
    }
}
