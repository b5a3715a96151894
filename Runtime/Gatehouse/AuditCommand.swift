import ArgumentParser
import AuthKit
import Foundation
import GatehouseJSON
import Store

/// `gatehouse audit`: the security events of the `AuditLog` table, newest first, filtered by
/// user, action and time, a page at a time; on the file store or DynamoDB as the other commands.
struct AuditCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "audit",
        abstract: "Show security events (sign-ins, failures, account changes, admin actions), newest first.",
        discussion: """
            Reads one user's events (--user) or every user's, day by day, within --since and --until \
            (ISO 8601 dates or times, or epoch seconds; by default the retention's whole span). When \
            more events match than --limit, the last line (on standard error) gives the --cursor of \
            the next page. Actions: \(AuditAction.allCases.map(\.rawValue).joined(separator: ", ")).
            """)

    @Option(help: "Only this user's events (their id).") var user: String?
    @Option(help: "Only this action (e.g. sign_in, lock, password_change).") var action: String?
    @Option(help: "From this time (ISO 8601 or epoch seconds).") var since: String?
    @Option(help: "Until this time (ISO 8601 or epoch seconds).") var until: String?
    @Option(help: "Events a page (1 to 1000).") var limit = 50
    @Option(help: "The page after the one that printed this cursor.") var cursor: String?
    @Flag(help: "One JSON object per event.") var json = false
    @OptionGroup var project: ProjectOptions

    func run() async throws {
        try await UsageFailure.reporting {
            let store = try await DatabaseCommand.open(project).store
            let log: AuditLog
            do {
                // `AUDIT_RETENTION_DAYS` as the functions read it (the window a read is held to).
                log = try AuditLog(
                    environment: ProcessInfo.processInfo.environment, store: store, clock: SystemStoreClock())
            } catch {
                throw UsageFailure("\(error)")
            }
            let page: AuditPage
            do {
                page = try await log.events(try query())
            } catch let error as AuditQueryError {
                throw UsageFailure("\(error)")
            }
            for event in page.events { Console.output(json ? event.json.serialized : Self.line(event)) }
            if let next = page.next { Console.error("more: --cursor \(next)") }
        }
    }

    /// The options as a query; a bad one is a usage failure naming it.
    func query() throws -> AuditQuery {
        var filter: AuditAction?
        if let action {
            guard let named = AuditAction(rawValue: action) else {
                throw UsageFailure("--action: no action is named \(action)")
            }
            filter = named
        }
        return AuditQuery(
            userID: user, action: filter, since: try since.map { try Self.time($0, option: "--since") },
            until: try until.map { try Self.time($0, option: "--until") }, limit: limit, cursor: cursor)
    }

    /// Epoch seconds of `text`: a number, an ISO 8601 time, or a date (its UTC midnight).
    static func time(_ text: String, option: String) throws -> Double {
        if let seconds = Double(text) { return seconds }
        let full = ISO8601DateFormatter()
        full.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let plain = ISO8601DateFormatter()
        let day = ISO8601DateFormatter()
        day.formatOptions = [.withFullDate]
        guard let date = full.date(from: text) ?? plain.date(from: text) ?? day.date(from: text) else {
            throw UsageFailure("\(option): give an ISO 8601 date or time, or epoch seconds, not \(text)")
        }
        return date.timeIntervalSince1970
    }

    /// One event as a line: time, action, outcome, then what is known of it.
    static func line(_ event: AuditEvent) -> String {
        let time = ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: event.time))
        var parts = [time, event.action.rawValue, event.outcome.reason.map { "failure(\($0.rawValue))" } ?? "success"]
        parts.append("actor=\(event.actor.text)")
        if let userID = event.userID { parts.append("user=\(userID)") }
        if let method = event.method { parts.append("method=\(method.rawValue)") }
        if let app = event.app { parts.append("app=\(app)") }
        if let source = event.sourceIP { parts.append("from=\(source)") }
        if let agent = event.agent { parts.append("client=\(agent.rawValue)") }
        return parts.joined(separator: " ")
    }
}
