import ArgumentParser
import Emulator
import GatehouseJSON

/// `gatehouse outbox`: the messages the local delivery (`EMAIL_DELIVERY=outbox`,
/// `SMS_DELIVERY=outbox`) put in the store, newest last: sign-in links and codes, which appear
/// nowhere else but start-api's console.
struct OutboxCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "outbox",
        abstract: "Show the emails and text messages sent locally (sign-in links and codes), newest last."
    )

    @Flag(help: "Keep printing new messages as they arrive (Ctrl-C to stop).") var follow = false
    @Flag(help: "One JSON object per message.") var json = false
    @Option(help: "Only messages to this address or phone number.") var to: String?
    @OptionGroup var project: ProjectOptions

    func run() async throws {
        try await UsageFailure.reporting {
            let feed = OutboxFeed(store: try await DatabaseCommand.open(project).store)
            if follow {
                try await feed.follow(to: to, every: .milliseconds(250), includingPresent: true, print)
            } else {
                try await feed.messages(to: to).forEach(print)
            }
        }
    }

    private func print(_ message: OutboxFeed.Message) {
        if json {
            Console.output(message.json.serialized)
            return
        }
        let about = message.subject.map { " \"\($0)\"" } ?? ""
        Console.output(
            "\(message.time) \(message.channel) to \(message.recipient) (\(message.app))\(about): \(message.secret)")
    }
}
