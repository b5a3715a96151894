import Foundation

/// The most bytes each function's zip may take, per build configuration:
/// `package-budgets.json` beside the template, `{"release": {"Jwks": 7500000, …}, "debug": {…}}`.
/// A zip over its budget fails `gatehouse package`, so a change that makes a function grow says
/// so, and `--sizes` names what grew. A function with no budget is not checked.
public struct SizeBudgets: Sendable, Equatable {
    /// Budgets by configuration, then function.
    public let bytes: [String: [String: Int]]

    public init(bytes: [String: [String: Int]]) {
        self.bytes = bytes
    }

    /// The budgets in the file at `path`; none when there is no file.
    public init(path: String) throws(SizeBudgetsError) {
        guard let data = FileManager.default.contents(atPath: path) else {
            self.init(bytes: [:])
            return
        }
        guard let decoded = try? JSONDecoder().decode([String: [String: Int]].self, from: data) else {
            throw .malformed(path)
        }
        self.init(bytes: decoded)
    }

    /// Why `zipBytes` for `function` built in `configuration` is over its budget; nil within it.
    public func violation(function: String, configuration: String, zipBytes: Int) -> String? {
        guard let budget = bytes[configuration]?[function], zipBytes > budget else { return nil }
        return
            "\(function).zip is \(zipBytes) bytes, \(zipBytes - budget) over its \(configuration) budget of \(budget)"
            + " (package-budgets.json): --sizes names what grew; raise the budget only on purpose"
    }
}

/// A budgets file that cannot be read.
public enum SizeBudgetsError: Error, Sendable, Equatable, CustomStringConvertible {
    case malformed(String)

    public var description: String {
        switch self {
        case .malformed(let path):
            "\(path) must be a JSON object of configurations, each an object of function names to whole byte counts"
        }
    }
}
