/// The actions a function may take on each table, from its `STORE_ACCESS` variable:
/// `Apps=read,check Sessions=read,put,delete` (a table, `=`, its actions; entries apart by
/// spaces). The template sets it beside the policies it stands for, and `DeployedTemplateTests`
/// checks that the two say the same.
public struct TableGrants: Sendable, Equatable {
    /// The variable that holds them.
    public static let environmentVariable = "STORE_ACCESS"

    /// The actions allowed on each table; a table not here allows none.
    public let actions: [String: Set<TableAction>]

    public init(_ actions: [String: Set<TableAction>]) {
        self.actions = actions
    }

    /// The grants `environmentText` wrote; an error naming the entry that is not one.
    public init(environmentText text: String) throws(StoreError) {
        var actions: [String: Set<TableAction>] = [:]
        for entry in text.split(separator: " ") {
            let invalid = StoreError.invalidTable(
                place: Self.environmentVariable,
                reason: "\"\(entry)\" is not TABLE=ACTION[,ACTION…] with actions of "
                    + TableAction.allCases.map(\.rawValue).joined(separator: ", "))
            let halves = entry.split(separator: "=", maxSplits: 1)
            guard halves.count == 2, !halves[0].isEmpty, actions[String(halves[0])] == nil else { throw invalid }
            var allowed: Set<TableAction> = []
            for word in halves[1].split(separator: ",", omittingEmptySubsequences: false) {
                guard let action = TableAction(rawValue: String(word)) else { throw invalid }
                allowed.insert(action)
            }
            actions[String(halves[0])] = allowed
        }
        self.actions = actions
    }

    /// One line, tables and actions in order.
    public var environmentText: String {
        actions.keys.sorted().map { table in
            "\(table)=\(actions[table, default: []].sorted().map(\.rawValue).joined(separator: ","))"
        }.joined(separator: " ")
    }

    /// Whether `action` on `table` is granted.
    public func allows(_ action: TableAction, on table: String) -> Bool {
        actions[table]?.contains(action) ?? false
    }
}
