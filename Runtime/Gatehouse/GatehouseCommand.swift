import ArgumentParser

/// `gatehouse`: run, inspect and package the Gatehouse functions locally.
@main
struct GatehouseCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gatehouse",
        abstract: "Run Gatehouse's Lambda functions locally, the way AWS Lambda runs them.",
        subcommands: [InvokeCommand.self, KeysCommand.self]
    )
}
