/// One `AWS::Serverless::Function` of the template, with `Globals.Function` applied.
public struct FunctionDefinition: Sendable, Equatable {
    /// The logical id: what `gatehouse invoke NAME` takes.
    public let name: String
    /// `CodeUri`: absolute, or relative to the template's folder.
    public let codeUri: String
    public let handler: String
    public let runtime: String
    public let architectures: [String]
    /// `Timeout` in seconds (SAM's default is 3).
    public let timeoutSeconds: Double
    /// `MemorySize` in MB (SAM's default is 128).
    public let memorySize: Int
    /// `Environment.Variables`: the globals' merged with the function's own, which win.
    public let environment: [String: String]
    /// `ReservedConcurrentExecutions`: how many instances may run at once (nil: unset).
    public var reservedConcurrency: Int? = nil

    /// The custom runtime's executable: `bootstrap` in the `CodeUri` folder, which is absolute or
    /// relative to `templateDirectory`.
    public func bootstrapPath(templateDirectory: String) -> String {
        let folder = codeUri.hasPrefix("/") ? codeUri : "\(templateDirectory)/\(codeUri)"
        return "\(folder.hasSuffix("/") ? String(folder.dropLast()) : folder)/bootstrap"
    }

    /// The Swift product that builds this function: the last component of `CodeUri`
    /// (`Functions/Jwks` builds the `Jwks` product).
    public var productName: String {
        codeUri.split(separator: "/").last.map(String.init) ?? name
    }
}
