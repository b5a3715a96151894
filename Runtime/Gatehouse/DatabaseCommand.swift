import ArgumentParser
import Emulator
import Foundation
import GatehouseJSON
import Store

/// `gatehouse db`: look into the local store. Output is JSON, one item per line, for `jq`.
/// Expired items never appear.
struct DatabaseCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "db",
        abstract: "Look into the store (.gatehouse/store.sqlite, or GATEHOUSE_STORE; DynamoDB with --store dynamodb).",
        subcommands: [Tables.self, Scan.self, Get.self, Put.self, Delete.self, Sweep.self]
    )

    /// The project's store, opened with the template's tables.
    static func open(_ project: ProjectOptions) async throws -> ProjectStore {
        try await project.store(for: project.loadTemplate())
    }

    static func printItem(_ item: Item) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        Console.output(String(decoding: try encoder.encode(item), as: UTF8.self))
    }

    /// A key from the command line, typed by the table's key schema.
    static func key(_ values: [String], table: String, in store: ProjectStore) throws -> ItemKey {
        guard let definition = store.tables.first(where: { $0.name == table }) else {
            throw StoreError.unknownTable(table, available: store.tables.map(\.name).sorted())
        }
        let expected = definition.sortKey == nil ? 1 : 2
        guard values.count == expected else {
            let names = [definition.partitionKey.name] + (definition.sortKey.map { [$0.name] } ?? [])
            throw UsageFailure("\(table) is keyed by \(names.joined(separator: " and ")): give \(expected) value(s)")
        }
        func typed(_ text: String, _ attribute: TableDefinition.KeyAttribute) throws -> JSONValue {
            switch attribute.type {
            case .string: return .string(text)
            case .number:
                guard let number = Double(text) else {
                    throw UsageFailure("\(attribute.name) must be a number, not \(text)")
                }
                return .number(number)
            }
        }
        let partition = try typed(values[0], definition.partitionKey)
        return ItemKey(partition, try definition.sortKey.map { try typed(values[1], $0) })
    }

    struct Tables: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the tables and their key schemas.")
        @OptionGroup var project: ProjectOptions

        func run() async throws {
            try await UsageFailure.reporting {
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.sortedKeys]
                for table in try await DatabaseCommand.open(project).tables {
                    Console.output(String(decoding: try encoder.encode(table), as: UTF8.self))
                }
            }
        }
    }

    struct Scan: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Print a table's items, one per line.")
        @Argument(help: "The table's logical id in the template.") var table: String
        @Option(help: "At most this many items.") var limit: Int?
        @OptionGroup var project: ProjectOptions

        func run() async throws {
            try await UsageFailure.reporting {
                for item in try await DatabaseCommand.open(project).store.scan(table, limit: limit) {
                    try DatabaseCommand.printItem(item)
                }
            }
        }
    }

    /// A table and an item's key, as `get` and `delete` take them.
    struct ItemAddress: ParsableArguments {
        @Argument(help: "The table's logical id in the template.") var table: String
        // Key values are data: one beginning with "-" is still a key, never an option.
        @Argument(
            parsing: .allUnrecognized, help: ArgumentHelp("The partition key, then the sort key.", valueName: "key"))
        var key: [String] = []
        @OptionGroup var project: ProjectOptions

        /// Opens the store, runs `operation` on the item's key, prints the item it returns.
        func run(_ operation: (any KeyValueStore, String, ItemKey) async throws -> Item?) async throws {
            try await UsageFailure.reporting {
                let store = try await DatabaseCommand.open(project)
                let itemKey = try DatabaseCommand.key(key, table: table, in: store)
                if let item = try await operation(store.store, table, itemKey) {
                    try DatabaseCommand.printItem(item)
                }
            }
        }
    }

    struct Get: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Print one item; nothing when there is none.")
        @OptionGroup var address: ItemAddress

        func run() async throws {
            try await address.run { store, table, key in try await store.get(table, key: key) }
        }
    }

    struct Put: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Write an item given as a JSON object.")
        @Argument(help: "The table's logical id in the template.") var table: String
        @Argument(help: "The item, e.g. '{\"id\":\"demo\",\"name\":\"Demo\"}'.") var json: String
        @OptionGroup var project: ProjectOptions

        func run() async throws {
            try await UsageFailure.reporting {
                let value: JSONValue
                do {
                    value = try JSONValue(parsing: json.utf8)
                } catch {
                    throw UsageFailure("the item is not valid JSON: \(error)")
                }
                guard let item = value.objectValue else { throw UsageFailure("the item is not a JSON object: \(json)") }
                try await DatabaseCommand.open(project).store.put(table, item: item, condition: nil)
            }
        }
    }

    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Delete an item and print it; nothing when there was none (an atomic consume)."
        )
        @OptionGroup var address: ItemAddress

        func run() async throws {
            try await address.run { store, table, key in try await store.delete(table, key: key, condition: nil) }
        }
    }

    struct Sweep: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Delete expired items now; print how many.")
        @OptionGroup var project: ProjectOptions

        func run() async throws {
            try await UsageFailure.reporting {
                guard let file = try await DatabaseCommand.open(project).file else {
                    throw UsageFailure(
                        "sweep is for the store file: DynamoDB deletes expired items itself (reads never return them)")
                }
                Console.output(String(try await file.sweep()))
            }
        }
    }
}
