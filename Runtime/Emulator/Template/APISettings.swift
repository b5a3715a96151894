import Foundation
import GatehouseJSON
import LambdaRuntime

/// What routes take from the `AWS::Serverless::HttpApi` or `AWS::Serverless::Api` they name.
struct APISettings {
    let kind: HTTPRoute.Kind
    /// `StageName`; nil leaves the kind's default.
    let stage: String?
    /// `BinaryMediaTypes` (REST), with CloudFormation's `~1` for `/` undone.
    let binaryMediaTypes: [String]
    /// `Auth.DefaultAuthorizer`.
    let defaultAuthorizer: String?
    /// `CorsConfiguration` (HTTP API) or `Cors` (REST).
    let cors: CORSConfiguration?
}

extension TemplateReader {
    /// The settings of API resource `name` of `kind`.
    func apiSettings(name: String, kind: HTTPRoute.Kind, properties: [String: JSONValue]) throws -> APISettings {
        let place = "Resources.\(name).Properties"
        let stage = try string(properties["StageName"], at: "\(place).StageName")
        var types: [String] = []
        if let list = properties["BinaryMediaTypes"] {
            guard kind == .rest else { throw fail("\(place).BinaryMediaTypes", "is a REST API (Api) setting") }
            guard let items = list.arrayValue else { throw fail("\(place).BinaryMediaTypes", "must be a list") }
            types = try items.map { item in
                guard let text = item.stringValue, text.contains("/") || text.contains("~1") else {
                    throw fail("\(place).BinaryMediaTypes", "must be media types such as image~1png or */*")
                }
                return text.replacingOccurrences(of: "~1", with: "/").lowercased()
            }
        }
        return APISettings(
            kind: kind, stage: stage, binaryMediaTypes: types,
            defaultAuthorizer: try string(
                properties["Auth"]?["DefaultAuthorizer"], at: "\(place).Auth.DefaultAuthorizer"),
            cors: kind == .rest
                ? try restCORS(properties["Cors"], at: "\(place).Cors")
                : try httpCORS(properties["CorsConfiguration"], at: "\(place).CorsConfiguration"))
    }

    /// An HTTP API's `CorsConfiguration`: `true` (everything allowed) or its lists.
    private func httpCORS(_ value: JSONValue?, at place: String) throws -> CORSConfiguration? {
        guard let value else { return nil }
        if let flag = value.boolValue {
            return flag ? CORSConfiguration(allowOrigins: ["*"], allowMethods: ["*"], allowHeaders: ["*"]) : nil
        }
        guard let object = try self.object(value, at: place) else { return nil }
        // A list, whose items may be parameters' `Ref`s, or the `Ref` of a CommaDelimitedList
        // parameter (its value split at commas, as CloudFormation splits it).
        func list(_ key: String) throws -> [String] {
            guard let items = object[key] else { return [] }
            if items.objectValue?["Ref"] != nil {
                return try environmentValue(items, at: "\(place).\(key)").split(separator: ",").map {
                    $0.trimmingCharacters(in: .whitespaces)
                }
            }
            guard let array = items.arrayValue else { throw fail("\(place).\(key)", "must be a list of strings") }
            return try array.map { item in
                guard item.stringValue != nil || item.objectValue?["Ref"] != nil else {
                    throw fail("\(place).\(key)", "must be a list of strings")
                }
                return try environmentValue(item, at: "\(place).\(key)")
            }
        }
        let maxAge = try number(object["MaxAge"], at: "\(place).MaxAge")
        if let maxAge, Int(exactly: maxAge) == nil || maxAge < 0 {
            throw fail("\(place).MaxAge", "must be a whole number of seconds")
        }
        return try credentialsChecked(
            CORSConfiguration(
                allowOrigins: try list("AllowOrigins"), allowMethods: try list("AllowMethods"),
                allowHeaders: try list("AllowHeaders"), exposeHeaders: try list("ExposeHeaders"),
                maxAge: maxAge.flatMap { Int(exactly: $0) },
                allowCredentials: object["AllowCredentials"]?.boolValue ?? false),
            at: place)
    }

    /// Refuses any origin (`*`) together with credentials, as API Gateway refuses it: a browser
    /// would send every site's cookies to the API and let that site read the answers.
    private func credentialsChecked(_ cors: CORSConfiguration, at place: String) throws -> CORSConfiguration {
        guard cors.allowCredentials, cors.allowOrigins.contains("*") else { return cors }
        throw fail(
            "\(place).AllowCredentials", "cannot be true while the allowed origins include \"*\"; name the origins")
    }

    /// A REST API's `Cors`: `"'origin'"`, or `AllowOrigin`, `AllowMethods`, `AllowHeaders`,
    /// `MaxAge` as quoted strings (the header values SAM puts in its OPTIONS mocks).
    private func restCORS(_ value: JSONValue?, at place: String) throws -> CORSConfiguration? {
        guard let value else { return nil }
        func unquoted(_ value: JSONValue?, _ key: String) throws -> String? {
            let here = key.isEmpty ? place : "\(place).\(key)"
            guard let text = try string(value, at: here) else { return nil }
            guard text.count >= 2, text.hasPrefix("'"), text.hasSuffix("'") else {
                throw fail(here, "must be a quoted header value such as \"'*'\"")
            }
            return String(text.dropFirst().dropLast())
        }
        func split(_ text: String?) -> [String] {
            (text ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        }
        if value.stringValue != nil {
            return CORSConfiguration(
                allowOrigins: [try unquoted(value, "") ?? "*"], allowMethods: ["*"], allowHeaders: ["*"])
        }
        guard let object = try self.object(value, at: place) else { return nil }
        guard let origin = try unquoted(object["AllowOrigin"], "AllowOrigin") else {
            throw fail("\(place).AllowOrigin", "is missing")
        }
        let maxAge = try unquoted(object["MaxAge"], "MaxAge")
        return try credentialsChecked(
            CORSConfiguration(
                allowOrigins: [origin], allowMethods: split(try unquoted(object["AllowMethods"], "AllowMethods")),
                allowHeaders: split(try unquoted(object["AllowHeaders"], "AllowHeaders")),
                maxAge: maxAge.flatMap { Int($0) }, allowCredentials: object["AllowCredentials"]?.boolValue ?? false),
            at: place)
    }
}
