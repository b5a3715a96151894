/// What a function may do to a table, in the terms of the IAM actions the DynamoDB store sends:
/// the template grants each as an explicit statement on the table's ARN, and `GrantedStore`
/// refuses anything else, with either backend.
public enum TableAction: String, Sendable, CaseIterable, Comparable {
    /// `GetItem` and `Query`: reading items by their key.
    case read
    /// `Scan`: reading the whole table, which only the CLI does (`gatehouse apps list`); no
    /// function is granted it.
    case scan
    /// `PutItem`, alone or in a transaction.
    case put
    /// `UpdateItem`, alone or in a transaction.
    case update
    /// `DeleteItem`, alone or in a transaction.
    case delete
    /// `ConditionCheckItem`: a transaction's check that writes nothing.
    case check

    /// The IAM actions the action stands for.
    public var iamActions: [String] {
        switch self {
        case .read: ["dynamodb:GetItem", "dynamodb:Query"]
        case .scan: ["dynamodb:Scan"]
        case .put: ["dynamodb:PutItem"]
        case .update: ["dynamodb:UpdateItem"]
        case .delete: ["dynamodb:DeleteItem"]
        case .check: ["dynamodb:ConditionCheckItem"]
        }
    }

    public static func < (left: TableAction, right: TableAction) -> Bool {
        allCases.firstIndex(of: left)! < allCases.firstIndex(of: right)!
    }
}
