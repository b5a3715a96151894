import Foundation
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
                properties["Auth"]?["DefaultAuthorizer"], at: "\(place).Auth.DefaultAuthorizer"))
    }
}
