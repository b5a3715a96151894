/// Why a store operation did nothing. Each case names what was wrong; none is a crash.
public enum StoreError: Error, Sendable, Equatable, CustomStringConvertible {
    case unknownTable(String, available: [String])
    case missingKeyAttribute(table: String, attribute: String)
    case wrongKeyType(table: String, attribute: String, expected: String)
    case itemTooLarge(table: String, bytes: Int)
    /// The write's condition did not hold; nothing was written.
    case conditionFailed(table: String, key: String)
    /// A transaction was cancelled because operation `index` (0-based) failed its condition.
    case transactionCanceled(index: Int, table: String, key: String)
    case invalidUpdate(String)
    case invalidTransaction(String)
    /// A table definition in the template that the store cannot use.
    case invalidTable(place: String, reason: String)
    /// The file cannot be used as a store: not one, corrupt, read-only, locked or full.
    case unusableFile(path: String, reason: String)
    /// The backend's library could not be loaded: the reason and the package to install.
    case libraryUnavailable(String)

    /// The backend could not be reached or did not answer as it should (a DynamoDB call that
    /// failed after its retries); the reason names no credential.
    case unavailable(operation: String, table: String, reason: String)

    /// The function is not granted `action` on `table` (`TableGrants`, from its template entry):
    /// deployed, IAM would refuse the call.
    case notGranted(table: String, action: TableAction)

    /// DynamoDB's limit on one item, 400 KB.
    public static let maximumItemBytes = 400 * 1024

    public var description: String {
        switch self {
        case .unknownTable(let name, let available):
            "no table named \(name); tables: \(available.isEmpty ? "(none)" : available.joined(separator: ", "))"
        case .missingKeyAttribute(let table, let attribute): "\(table): the item has no key attribute \(attribute)"
        case .wrongKeyType(let table, let attribute, let expected):
            "\(table): key attribute \(attribute) must be a \(expected)"
        case .itemTooLarge(let table, let bytes):
            "\(table): the item is \(bytes) bytes; at most \(Self.maximumItemBytes) are allowed"
        case .conditionFailed(let table, let key): "\(table): the condition failed for \(key)"
        case .transactionCanceled(let index, let table, let key):
            "transaction cancelled: operation \(index) (\(table), \(key)) failed its condition"
        case .invalidUpdate(let reason): "invalid update: \(reason)"
        case .invalidTransaction(let reason): "invalid transaction: \(reason)"
        case .invalidTable(let place, let reason): "\(place): \(reason)"
        case .unusableFile(let path, let reason): "cannot use \(path) as the store: \(reason)"
        case .libraryUnavailable(let reason): reason
        case .unavailable(let operation, let table, let reason): "\(operation) on \(table) failed: \(reason)"
        case .notGranted(let table, let action):
            "\(table): the function is not granted \(action.rawValue) (\(TableGrants.environmentVariable)), as IAM would refuse it"
        }
    }
}
