import LambdaRuntime

extension TemplateReader {
    /// The Lambda authorizers of the HTTP API `api`. What the emulator cannot run faithfully
    /// (a JWT authorizer, payload 1.0, IAM policy answers) is an error naming its place.
    func authorizers(api: String, properties: [String: JSONValue]) throws -> [LambdaAuthorizer] {
        let place = "Resources.\(api).Properties.Auth.Authorizers"
        guard let definitions = try object(properties["Auth"]?["Authorizers"], at: place) else { return [] }
        var result: [LambdaAuthorizer] = []
        for (name, definition) in definitions.sorted(by: { $0.key < $1.key }) {
            let here = "\(place).\(name)"
            guard definition["JwtConfiguration"] == nil else {
                throw fail(here, "JWT authorizers are not supported; use a Lambda authorizer (FunctionArn)")
            }
            guard let arn = definition["FunctionArn"], let target = arn["Fn::GetAtt"]?.arrayValue, target.count == 2,
                let function = target[0].stringValue, target[1].stringValue == "Arn"
            else { throw fail("\(here).FunctionArn", "must be {\"Fn::GetAtt\": [\"<function>\", \"Arn\"]}") }
            let version = try string(
                definition["AuthorizerPayloadFormatVersion"], at: "\(here).AuthorizerPayloadFormatVersion")
            guard version == "2.0" else {
                throw fail("\(here).AuthorizerPayloadFormatVersion", "only \"2.0\" is supported")
            }
            let simple = definition["EnableSimpleResponses"]?.boolValue ?? false
            guard simple else {
                throw fail("\(here).EnableSimpleResponses", "must be true: IAM policy answers are not supported")
            }
            let identity = try object(definition["Identity"], at: "\(here).Identity") ?? [:]
            var headers = ["authorization"]
            if let list = identity["Headers"] {
                guard let names = list.arrayValue?.compactMap(\.stringValue), names.count == list.arrayValue?.count,
                    !names.isEmpty
                else { throw fail("\(here).Identity.Headers", "must be a list of header names") }
                headers = names.map { $0.lowercased() }
            }
            let every = try number(identity["ReauthorizeEvery"], at: "\(here).Identity.ReauthorizeEvery") ?? 300
            guard every >= 0, every <= 3600, every.rounded() == every else {
                throw fail("\(here).Identity.ReauthorizeEvery", "must be a whole number of seconds from 0 to 3600")
            }
            result.append(
                LambdaAuthorizer(
                    name: name, function: function, identityHeaders: headers, reauthorizeEvery: Int(every),
                    simpleResponses: simple))
        }
        return result
    }
}
