import Foundation

/// `dist/template.json`: the project's template with each packaged function's `CodeUri` at
/// its zip (beside the template) and its `Runtime` the target's, and the build's architecture
/// in `Globals`, ready for `sam deploy --template-file dist/template.json`.
public enum PackagedTemplate {
    /// Writes `output/template.json` from the template at `path`; returns the functions that
    /// have no zip in `output` yet (their `CodeUri` is left as it was).
    @discardableResult
    public static func write(
        template path: String, output: String, target: LambdaTarget, architecture: String
    )
        throws -> [String]
    {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        guard var root = try JSONSerialization.jsonObject(with: data) as? [String: Any],
            var resources = root["Resources"] as? [String: Any]
        else { throw PackagedTemplateError.notATemplate(path) }
        var missing: [String] = []
        for name in resources.keys.sorted() {
            guard var resource = resources[name] as? [String: Any],
                resource["Type"] as? String == "AWS::Serverless::Function"
            else { continue }
            guard FileManager.default.fileExists(atPath: "\(output)/\(name).zip") else {
                missing.append(name)
                continue
            }
            var properties = resource["Properties"] as? [String: Any] ?? [:]
            properties["CodeUri"] = "\(name).zip"
            properties["Runtime"] = target.runtime
            // Set once in Globals below: SAM appends a function's list to the Globals' one.
            properties["Architectures"] = nil
            resource["Properties"] = properties
            // Its code is the zip now: nothing for `sam build` to build (BuildMethod makefile).
            resource["Metadata"] = nil
            resources[name] = resource
        }
        root["Resources"] = resources
        var globals = root["Globals"] as? [String: Any] ?? [:]
        var function = globals["Function"] as? [String: Any] ?? [:]
        function["Architectures"] = [architecture]
        globals["Function"] = function
        root["Globals"] = globals
        let text = try JSONSerialization.data(
            withJSONObject: root, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
        try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
        try (text + Data("\n".utf8)).write(to: URL(fileURLWithPath: "\(output)/template.json"), options: .atomic)
        return missing
    }
}

/// A template that cannot be packaged.
public enum PackagedTemplateError: Error, CustomStringConvertible {
    case notATemplate(String)

    public var description: String {
        switch self {
        case .notATemplate(let path): "\(path) is not a template with Resources"
        }
    }
}
