import GatehouseJSON
import Logging

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes one JSON object per line to standard error, the way Lambda's JSON log format does:
/// `{"timestamp","level","message","requestId",...metadata}`.
///
/// Level from `AWS_LAMBDA_LOG_LEVEL` (default `INFO`). Never log a secret: metadata values are
/// written as given.
public struct LambdaLogHandler: LogHandler {
    public var metadata: Logger.Metadata = [:]
    public var logLevel: Logger.Level
    private let label: String

    /// Creates a handler for `label` at `level`.
    public init(label: String, level: Logger.Level = .info) {
        self.label = label
        self.logLevel = level
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    /// Installs this handler as the process's logging backend (once) and returns the runtime's logger.
    static func bootstrap() -> Logger {
        let level = ProcessInfo.processInfo.environment["AWS_LAMBDA_LOG_LEVEL"].flatMap(Self.level(named:)) ?? .info
        LoggingSystem.bootstrap { LambdaLogHandler(label: $0, level: level) }
        return Logger(label: ProcessInfo.processInfo.environment["AWS_LAMBDA_FUNCTION_NAME"] ?? "lambda")
    }

    static func level(named name: String) -> Logger.Level? {
        switch name.uppercased() {
        case "TRACE": .trace
        case "DEBUG": .debug
        case "INFO": .info
        case "WARN", "WARNING": .warning
        case "ERROR": .error
        case "FATAL", "CRITICAL": .critical
        default: nil
        }
    }

    public func log(event: LogEvent) {
        var line = "{\"timestamp\":\""
        line += UTCTimestamp.now()
        line += "\",\"level\":\""
        line += Self.levelName(event.level)
        line += "\",\"message\":"
        JSONValue.appendQuoted(event.message.description, to: &line)
        var merged = metadata
        if let extra = event.metadata {
            merged.merge(extra, uniquingKeysWith: { _, new in new })
        }
        for key in merged.keys.sorted() {
            line += ","
            JSONValue.appendQuoted(key, to: &line)
            line += ":"
            JSONValue.appendQuoted(merged[key]!.description, to: &line)
        }
        line += "}\n"
        Self.writeToStandardError(line)
    }

    static func levelName(_ level: Logger.Level) -> String {
        switch level {
        case .trace: "TRACE"
        case .debug: "DEBUG"
        case .info: "INFO"
        case .notice: "INFO"
        case .warning: "WARN"
        case .error: "ERROR"
        case .critical: "FATAL"
        }
    }

    /// One `write` per line, so lines from concurrent tasks never interleave mid-line. Also how
    /// a function writes a line of its own to its log stream (a metric, say).
    public static func writeToStandardError(_ line: String) {
        var line = line
        line.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = write(2, bytes.baseAddress! + offset, bytes.count - offset)
                if written <= 0 {
                    if written < 0 && errno == EINTR { continue }
                    return
                }
                offset += written
            }
        }
    }
}
