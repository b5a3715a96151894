import Foundation
import GatehouseJSON
import LambdaRuntime

extension TemplateReader {
    /// The Lambda authorizers of the API `api` (an `HttpApi` or a REST `Api`). What the emulator
    /// cannot run faithfully (JWT, Cognito or IAM authorizers, identity sources other than
    /// headers) is an error naming its place.
    func authorizers(api: String, kind: HTTPRoute.Kind, properties: [String: JSONValue]) throws -> [LambdaAuthorizer] {
        let place = "Resources.\(api).Properties.Auth.Authorizers"
        guard let definitions = try object(properties["Auth"]?["Authorizers"], at: place) else { return [] }
        var result: [LambdaAuthorizer] = []
        for (name, definition) in definitions.sorted(by: { $0.key < $1.key }) {
            let here = "\(place).\(name)"
            if definition["JwtConfiguration"] != nil {
                guard kind == .httpAPI else { throw fail(here, "JWT authorizers are for HTTP APIs only") }
                continue  // read by `jwtAuthorizers`
            }
            guard definition["UserPoolArn"] == nil else {
                throw fail(here, "Cognito authorizers are not supported; use a Lambda authorizer (FunctionArn)")
            }
            guard let arn = definition["FunctionArn"], let target = arn["Fn::GetAtt"]?.arrayValue, target.count == 2,
                let function = target[0].stringValue, target[1].stringValue == "Arn"
            else { throw fail("\(here).FunctionArn", "must be {\"Fn::GetAtt\": [\"<function>\", \"Arn\"]}") }
            let identity = try object(definition["Identity"], at: "\(here).Identity") ?? [:]
            for source in ["QueryStrings", "StageVariables", "Context"] where identity[source] != nil {
                throw fail("\(here).Identity.\(source)", "only headers are supported as identity sources")
            }
            let every = try number(identity["ReauthorizeEvery"], at: "\(here).Identity.ReauthorizeEvery") ?? 300
            guard every >= 0, every <= 3600, every.rounded() == every else {
                throw fail("\(here).Identity.ReauthorizeEvery", "must be a whole number of seconds from 0 to 3600")
            }
            let shape =
                kind == .httpAPI
                ? try httpAPIShape(definition, identity: identity, at: here)
                : try restShape(definition, identity: identity, at: here)
            result.append(
                LambdaAuthorizer(
                    name: name, function: function, api: kind, payloadType: shape.type,
                    payloadFormat: shape.format, identityHeaders: shape.headers, reauthorizeEvery: Int(every),
                    simpleResponses: shape.simple, validationExpression: shape.validation))
        }
        return result
    }

    /// The JWT authorizers of the HTTP API `api`: `JwtConfiguration` with an `issuer` (a string,
    /// `Ref` or `Fn::Sub`) and an `audience` list, and an `IdentitySource` that is one header.
    func jwtAuthorizers(api: String, properties: [String: JSONValue]) throws -> [JWTAuthorizer] {
        let place = "Resources.\(api).Properties.Auth.Authorizers"
        guard let definitions = try object(properties["Auth"]?["Authorizers"], at: place) else { return [] }
        var result: [JWTAuthorizer] = []
        for (name, definition) in definitions.sorted(by: { $0.key < $1.key }) {
            guard let configuration = definition["JwtConfiguration"] else { continue }
            let here = "\(place).\(name).JwtConfiguration"
            guard let value = configuration["issuer"] ?? configuration["Issuer"] else {
                throw fail(here, "needs an issuer")
            }
            let issuer = try environmentValue(value, at: "\(here).issuer")
            guard issuer.hasPrefix("https://") || issuer.hasPrefix("http://") else {
                throw fail("\(here).issuer", "must be an http(s) URL")
            }
            let audienceList = (configuration["audience"] ?? configuration["Audience"])?.arrayValue ?? []
            let audiences = try audienceList.map { try environmentValue($0, at: "\(here).audience") }
            guard !audiences.isEmpty else { throw fail("\(here).audience", "must list at least one audience") }
            let source =
                try string(definition["IdentitySource"], at: "\(place).\(name).IdentitySource")
                ?? "$request.header.Authorization"
            guard source.hasPrefix("$request.header."), source.count > "$request.header.".count else {
                throw fail("\(place).\(name).IdentitySource", "must be one header: $request.header.<Name>")
            }
            result.append(
                JWTAuthorizer(
                    name: name, issuer: issuer, audiences: Set(audiences),
                    identityHeader: String(source.dropFirst("$request.header.".count)).lowercased()))
        }
        return result
    }

    private struct Shape {
        var type: LambdaAuthorizer.PayloadType
        var format: PayloadFormat
        var headers: [String]
        var simple: Bool
        var validation: String?
    }

    /// An HTTP API authorizer: REQUEST events in format 2.0 or 1.0; simple answers (2.0 only)
    /// or IAM policies.
    private func httpAPIShape(
        _ definition: JSONValue, identity: [String: JSONValue], at here: String
    ) throws -> Shape {
        guard
            let version = try string(
                definition["AuthorizerPayloadFormatVersion"], at: "\(here).AuthorizerPayloadFormatVersion"),
            let format = PayloadFormat(version: version)
        else { throw fail("\(here).AuthorizerPayloadFormatVersion", "must be \"1.0\" or \"2.0\"") }
        let simple = definition["EnableSimpleResponses"]?.boolValue ?? false
        if simple, format != .v2 {
            throw fail("\(here).EnableSimpleResponses", "simple responses need AuthorizerPayloadFormatVersion \"2.0\"")
        }
        let headers = try headerList(identity["Headers"], at: "\(here).Identity.Headers") ?? ["authorization"]
        return Shape(type: .request, format: format, headers: headers, simple: simple)
    }

    /// A REST API authorizer: TOKEN (one header, `Identity.Header`, with an optional
    /// `ValidationExpression`) or REQUEST (`Identity.Headers`); answers are IAM policies.
    private func restShape(_ definition: JSONValue, identity: [String: JSONValue], at here: String) throws -> Shape {
        let typeName =
            try string(definition["FunctionPayloadType"], at: "\(here).FunctionPayloadType") ?? "TOKEN"
        guard let type = LambdaAuthorizer.PayloadType(rawValue: typeName) else {
            throw fail("\(here).FunctionPayloadType", "must be TOKEN or REQUEST")
        }
        switch type {
        case .token:
            let header = try string(identity["Header"], at: "\(here).Identity.Header") ?? "Authorization"
            let validation = try string(
                identity["ValidationExpression"], at: "\(here).Identity.ValidationExpression")
            if let validation {
                do {
                    _ = try NSRegularExpression(pattern: validation)
                } catch {
                    throw fail("\(here).Identity.ValidationExpression", "is not a regular expression")
                }
            }
            return Shape(
                type: .token, format: .v1, headers: [header.lowercased()], simple: false, validation: validation)
        case .request:
            guard let headers = try headerList(identity["Headers"], at: "\(here).Identity.Headers") else {
                throw fail("\(here).Identity.Headers", "a REQUEST authorizer needs its identity headers")
            }
            return Shape(type: .request, format: .v1, headers: headers, simple: false)
        }
    }

    /// A non-empty list of header names, lower-cased; nil when absent.
    private func headerList(_ value: JSONValue?, at place: String) throws -> [String]? {
        guard let value else { return nil }
        guard let list = value.arrayValue, !list.isEmpty else { throw fail(place, "must be a list of header names") }
        return try list.map { item in
            guard let name = item.stringValue, !name.isEmpty else {
                throw fail(place, "must be a list of header names")
            }
            return name.lowercased()
        }
    }
}
