import Foundation
import GatehouseJSON
import LambdaRuntime
import StoreCore

/// template.json, the single source of truth: read once, checked, and turned into definitions.
///
/// Only what the emulator uses is interpreted; a value it cannot use (an intrinsic function
/// where a plain value is needed, a wrong type) is an error naming its place in the file.
public struct Template: Sendable {
    /// The template file's path.
    public let path: String
    /// The folder that holds the template: `CodeUri` and `.gatehouse/` are relative to it.
    public let directory: String
    /// Every function, by logical id.
    public let functions: [String: FunctionDefinition]
    /// Every `AWS::DynamoDB::Table`, sorted by logical id.
    public let tables: [TableDefinition]
    /// Every `HttpApi` and `Api` event of every function, by function then event name.
    public let routes: [HTTPRoute]
    /// The Lambda authorizers of the APIs, by name.
    public let authorizers: [String: LambdaAuthorizer]
    /// The HTTP APIs' JWT authorizers, by name.
    public let jwtAuthorizers: [String: JWTAuthorizer]

    /// Reads and checks the template at `path`; `parameters` override the defaults of its
    /// `Parameters` (as `sam local --parameter-overrides` does).
    public static func load(path: String, parameters: [String: String] = [:]) throws -> Template {
        try parse(TemplateReader.readJSON(path: path), path: path, parameters: parameters)
    }

    /// Checks template JSON that was read from `path`.
    public static func parse(_ data: Data, path: String, parameters: [String: String] = [:]) throws -> Template {
        try parse(TemplateReader.decodeJSON(data, path: path), path: path, parameters: parameters)
    }

    static func parse(_ root: JSONValue, path: String, parameters overrides: [String: String] = [:]) throws -> Template
    {
        guard let top = root.objectValue else {
            throw TemplateError.invalid(path: path, place: "the top level", reason: "must be a JSON object")
        }
        var reader = TemplateReader(path: path)
        // Pseudo parameters as a local stack named `local` in us-east-1 would have them.
        var parameters = [
            "AWS::Region": "us-east-1", "AWS::AccountId": "123456789012", "AWS::Partition": "aws",
            "AWS::StackName": "local", "AWS::URLSuffix": "amazonaws.com",
        ]
        for (name, definition) in try reader.object(top["Parameters"], at: "Parameters") ?? [:] {
            if let value = definition["Default"] {
                parameters[name] = try reader.environmentValue(value, at: "Parameters.\(name).Default")
            }
        }
        parameters.merge(overrides, uniquingKeysWith: { _, override in override })
        reader.parameters = parameters
        let globals = try reader.object(top["Globals"]?["Function"], at: "Globals.Function") ?? [:]
        guard let resources = try reader.object(top["Resources"], at: "Resources") else {
            throw TemplateError.invalid(path: path, place: "Resources", reason: "is missing")
        }
        reader.resourceTypes = resources.mapValues { $0["Type"]?.stringValue ?? "" }
        var apis: [String: APISettings] = [:]
        var authorizers: [String: LambdaAuthorizer] = [:]
        var jwtAuthorizers: [String: JWTAuthorizer] = [:]
        for (name, resource) in resources.sorted(by: { $0.key < $1.key }) {
            let kind: HTTPRoute.Kind
            switch resource["Type"]?.stringValue {
            case "AWS::Serverless::HttpApi": kind = .httpAPI
            case "AWS::Serverless::Api": kind = .rest
            default: continue
            }
            let properties = try reader.object(resource["Properties"], at: "Resources.\(name).Properties") ?? [:]
            apis[name] = try reader.apiSettings(name: name, kind: kind, properties: properties)
            for authorizer in try reader.jwtAuthorizers(api: name, properties: properties) {
                guard jwtAuthorizers[authorizer.name] == nil else {
                    throw TemplateError.invalid(
                        path: path, place: "Resources.\(name).Properties.Auth.Authorizers.\(authorizer.name)",
                        reason: "another API has an authorizer of this name")
                }
                jwtAuthorizers[authorizer.name] = authorizer
            }
            for authorizer in try reader.authorizers(api: name, kind: kind, properties: properties) {
                guard authorizers[authorizer.name] == nil, jwtAuthorizers[authorizer.name] == nil else {
                    throw TemplateError.invalid(
                        path: path, place: "Resources.\(name).Properties.Auth.Authorizers.\(authorizer.name)",
                        reason: "another API has an authorizer of this name")
                }
                authorizers[authorizer.name] = authorizer
            }
        }
        var functions: [String: FunctionDefinition] = [:]
        var routes: [HTTPRoute] = []
        for (name, resource) in resources.sorted(by: { $0.key < $1.key }) {
            guard let type = resource["Type"]?.stringValue else {
                throw TemplateError.invalid(path: path, place: "Resources.\(name).Type", reason: "is missing")
            }
            guard type == "AWS::Serverless::Function" else { continue }
            let properties = try reader.object(resource["Properties"], at: "Resources.\(name).Properties") ?? [:]
            functions[name] = try reader.function(name: name, properties: properties, globals: globals)
            routes += try reader.routes(function: name, properties: properties, apis: apis)
        }
        let tables: [TableDefinition]
        do {
            tables = try TableDefinition.definitions(inTemplate: root)
        } catch StoreError.invalidTable(let place, let reason) {
            throw TemplateError.invalid(path: path, place: place, reason: reason)
        }
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
        for authorizer in authorizers.values where functions[authorizer.function] == nil {
            throw TemplateError.invalid(
                path: path, place: "Auth.Authorizers.\(authorizer.name).FunctionArn",
                reason: "\(authorizer.function) is not a function of this template")
        }
        for route in routes {
            guard let name = route.authorizer else { continue }
            let place = "Resources.\(route.function).Properties.Events.\(route.event)"
            if jwtAuthorizers[name] != nil {
                guard route.kind == .httpAPI else {
                    throw TemplateError.invalid(
                        path: path, place: place, reason: "\(name) is an HTTP API's JWT authorizer")
                }
                continue
            }
            guard let authorizer = authorizers[name] else {
                throw TemplateError.invalid(path: path, place: place, reason: "no authorizer named \(name)")
            }
            guard authorizer.api == route.kind else {
                throw TemplateError.invalid(
                    path: path, place: place,
                    reason:
                        "\(name) is an authorizer of a\(authorizer.api == .rest ? " REST" : "n HTTP") API, not of this route's"
                )
            }
        }
        return Template(
            path: path, directory: directory, functions: functions, tables: tables, routes: routes,
            authorizers: authorizers, jwtAuthorizers: jwtAuthorizers)
    }

    /// The function named `name`, or an error listing the ones there are.
    public func function(named name: String) throws -> FunctionDefinition {
        guard let function = functions[name] else {
            throw TemplateError.unknownFunction(name: name, available: functions.keys.sorted())
        }
        return function
    }
}
