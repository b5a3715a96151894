/// What a function may do to a table, in the terms of the IAM actions the DynamoDB store sends:
/// the template grants these (`DynamoDBReadPolicy` for `read`, an explicit statement for each
/// write) and `GrantedStore` refuses anything else, with either backend.
public enum TableAction: String, Sendable, CaseIterable, Comparable {
    /// `GetItem`, `Query` (and `Scan`, for tooling): SAM's `DynamoDBReadPolicy`.
    case read
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
        case .read:
            ["dynamodb:GetItem", "dynamodb:Query", "dynamodb:Scan", "dynamodb:BatchGetItem", "dynamodb:DescribeTable"]
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
