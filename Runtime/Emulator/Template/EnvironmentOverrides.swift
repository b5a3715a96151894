import Foundation
import GatehouseJSON
import LambdaRuntime

/// An `--env-vars` file in SAM's format: `{"Parameters": {...}, "FunctionName": {...}}`.
/// `Parameters` apply to every function, a function's own object to it alone, and win.
///
/// Unlike SAM, a variable is applied even when the template does not declare it.
public struct EnvironmentOverrides: Sendable, Equatable {
    public let shared: [String: String]
    public let perFunction: [String: [String: String]]

    public init(shared: [String: String] = [:], perFunction: [String: [String: String]] = [:]) {
        self.shared = shared
        self.perFunction = perFunction
    }

    /// Reads and checks the file at `path`.
    public static func load(path: String) throws -> EnvironmentOverrides {
        let root = try TemplateReader.decodeJSON(TemplateReader.readJSON(path: path), path: path)
        let reader = TemplateReader(path: path)
        guard let top = root.objectValue else {
            throw reader.fail("the top level", "must be an object of objects, e.g. {\"Jwks\": {\"KEY\": \"value\"}}")
        }
        var shared: [String: String] = [:]
        var perFunction: [String: [String: String]] = [:]
        for (section, value) in top {
            guard let variables = value.objectValue else {
                throw reader.fail(section, "must be an object of variables")
            }
            var parsed: [String: String] = [:]
            for (key, variable) in variables {
                parsed[key] = try reader.environmentValue(variable, at: "\(section).\(key)")
            }
            if section == "Parameters" { shared = parsed } else { perFunction[section] = parsed }
        }
        return EnvironmentOverrides(shared: shared, perFunction: perFunction)
    }

    /// The overrides for one function: shared first, its own on top.
    public func variables(for function: String) -> [String: String] {
        shared.merging(perFunction[function] ?? [:], uniquingKeysWith: { _, own in own })
    }
}
