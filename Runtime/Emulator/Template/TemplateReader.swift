import Foundation
import GatehouseJSON
import LambdaRuntime

/// Reads typed values out of template JSON, naming the place of anything it cannot use.
struct TemplateReader {
    let path: String
    /// Template parameters (their defaults, then overrides) and pseudo parameters, for `Ref`
    /// and `Fn::Sub` in environment values.
    var parameters: [String: String] = [:]
    /// Every resource's type by logical id, for `Ref` and `Fn::GetAtt` of resources.
    var resourceTypes: [String: String] = [:]

    /// The bytes of the file at `path`, or an error naming it.
    static func readJSON(path: String) throws -> Data {
        do {
            return try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw TemplateError.unreadable(path: path, reason: (error as NSError).localizedDescription)
        }
    }

    /// `data` as JSON, or an error naming the file and where the JSON broke.
    static func decodeJSON(_ data: Data, path: String) throws -> JSONValue {
        do {
            return try JSONDecoder().decode(JSONValue.self, from: data)
        } catch {
            // JSONSerialization says where the text breaks; the decoder's own message does not.
            var reason = "\(error)"
            do {
                _ = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
            } catch {
                reason = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? reason
            }
            throw TemplateError.notJSON(path: path, reason: reason)
        }
    }

    func fail(_ place: String, _ reason: String) -> TemplateError {
        .invalid(path: path, place: place, reason: reason)
    }

    func object(_ value: JSONValue?, at place: String) throws -> [String: JSONValue]? {
        guard let value else { return nil }
        guard let object = value.objectValue else { throw fail(place, "must be an object") }
        return object
    }

    func string(_ value: JSONValue?, at place: String) throws -> String? {
        guard let value else { return nil }
        guard let string = value.stringValue else {
            throw fail(place, Self.describeUnsupported(value, wanted: "a string"))
        }
        return string
    }

    func number(_ value: JSONValue?, at place: String) throws -> Double? {
        guard let value else { return nil }
        guard let number = value.numberValue else {
            throw fail(place, Self.describeUnsupported(value, wanted: "a number"))
        }
        return number
    }

    /// An environment variable's value: a string, number or boolean, as Lambda stores them (text).
    func environmentValue(_ value: JSONValue, at place: String) throws -> String {
        switch value {
        case .string(let text): return text
        case .object(let object) where object.count == 1 && object["Ref"] != nil:
            guard let name = object["Ref"]?.stringValue else {
                throw fail(place, "Ref must name a parameter or a resource")
            }
            return try reference(name, at: place)
        case .object(let object) where object.count == 1 && object["Fn::GetAtt"] != nil:
            let target: [String]
            switch object["Fn::GetAtt"] {
            case .string(let dotted)?: target = dotted.split(separator: ".", maxSplits: 1).map(String.init)
            case .array(let items)?: target = items.compactMap(\.stringValue)
            default: target = []
            }
            guard target.count == 2 else { throw fail(place, "Fn::GetAtt must be [\"<resource>\", \"<attribute>\"]") }
            return try attribute(target[1], of: target[0], at: place)
        case .object(let object) where object.count == 1 && object["Fn::Sub"] != nil:
            guard let template = object["Fn::Sub"]?.stringValue else {
                throw fail(place, "Fn::Sub is supported in its string form only")
            }
            return try substitute(template, at: place)
        case .bool(let flag): return flag ? "true" : "false"
        case .number(let number):
            return number.rounded() == number && abs(number) < 1e15 ? String(Int64(number)) : String(number)
        default: throw fail(place, Self.describeUnsupported(value, wanted: "a string, number or boolean"))
        }
    }

    func environment(_ properties: [String: JSONValue], at place: String) throws -> [String: String] {
        guard let variables = try object(properties["Environment"]?["Variables"], at: "\(place).Environment.Variables")
        else {
            return [:]
        }
        var result: [String: String] = [:]
        for (key, value) in variables {
            result[key] = try environmentValue(value, at: "\(place).Environment.Variables.\(key)")
        }
        return result
    }

    func function(
        name: String, properties: [String: JSONValue], globals: [String: JSONValue]
    ) throws -> FunctionDefinition {
        let place = "Resources.\(name).Properties"
        func pick(_ key: String) -> (JSONValue?, String) {
            if let global = globals[key], properties[key] == nil { return (global, "Globals.Function.\(key)") }
            return (properties[key], "\(place).\(key)")
        }
        let (codeValue, codePlace) = pick("CodeUri")
        guard let codeUri = try string(codeValue, at: codePlace) else { throw fail(codePlace, "is missing") }
        let (handlerValue, handlerPlace) = pick("Handler")
        let (runtimeValue, runtimePlace) = pick("Runtime")
        let (timeoutValue, timeoutPlace) = pick("Timeout")
        let (memoryValue, memoryPlace) = pick("MemorySize")
        let (architecturesValue, architecturesPlace) = pick("Architectures")
        let timeout = try number(timeoutValue, at: timeoutPlace) ?? 3
        guard timeout >= 1, timeout <= 900 else { throw fail(timeoutPlace, "must be between 1 and 900 seconds") }
        let memory = try number(memoryValue, at: memoryPlace) ?? 128
        guard memory >= 128, memory <= 10240, memory.rounded() == memory else {
            throw fail(memoryPlace, "must be a whole number of MB between 128 and 10240")
        }
        var architectures = ["x86_64"]
        if let architecturesValue {
            guard let list = architecturesValue.arrayValue, list.count == 1, let only = list[0].stringValue,
                ["x86_64", "arm64"].contains(only)
            else { throw fail(architecturesPlace, "must be [\"x86_64\"] or [\"arm64\"]") }
            architectures = [only]
        }
        let (reservedValue, reservedPlace) = pick("ReservedConcurrentExecutions")
        let reserved = try number(reservedValue, at: reservedPlace)
        if let reserved {
            guard reserved >= 0, reserved <= 1000, reserved.rounded() == reserved else {
                throw fail(reservedPlace, "must be a whole number from 0 to 1000")
            }
        }
        var environment = try self.environment(globals, at: "Globals.Function")
        environment.merge(try self.environment(properties, at: place), uniquingKeysWith: { _, own in own })
        let (loggingValue, loggingPlace) = pick("LoggingConfig")
        environment.merge(try logging(loggingValue, at: loggingPlace), uniquingKeysWith: { own, _ in own })
        return FunctionDefinition(
            name: name,
            codeUri: codeUri,
            handler: try string(handlerValue, at: handlerPlace) ?? "bootstrap",
            runtime: try string(runtimeValue, at: runtimePlace) ?? "provided.al2023",
            architectures: architectures,
            timeoutSeconds: timeout,
            memorySize: Int(memory),
            environment: environment,
            reservedConcurrency: reserved.map { Int($0) }
        )
    }

    /// `LoggingConfig` as Lambda hands it to a function: `AWS_LAMBDA_LOG_FORMAT` and, in the
    /// JSON format, `AWS_LAMBDA_LOG_LEVEL` (the application log level; Lambda's default INFO).
    func logging(_ value: JSONValue?, at place: String) throws -> [String: String] {
        guard let config = try object(value, at: place) else { return [:] }
        let format = try config["LogFormat"].map { try environmentValue($0, at: "\(place).LogFormat") } ?? "Text"
        guard ["Text", "JSON"].contains(format) else { throw fail("\(place).LogFormat", "must be Text or JSON") }
        guard format == "JSON" else { return ["AWS_LAMBDA_LOG_FORMAT": format] }
        let level =
            try config["ApplicationLogLevel"].map { try environmentValue($0, at: "\(place).ApplicationLogLevel") }
            ?? "INFO"
        guard ["TRACE", "DEBUG", "INFO", "WARN", "ERROR", "FATAL"].contains(level) else {
            throw fail("\(place).ApplicationLogLevel", "must be TRACE, DEBUG, INFO, WARN, ERROR or FATAL")
        }
        return ["AWS_LAMBDA_LOG_FORMAT": format, "AWS_LAMBDA_LOG_LEVEL": level]
    }

    /// `Fn::Sub`'s string form: `${Name}` from the parameters, `${!Literal}` as `${Literal}`.
    func substitute(_ template: String, at place: String) throws -> String {
        var result = ""
        var rest = template[...]
        while let open = rest.range(of: "${") {
            result += rest[..<open.lowerBound]
            guard let close = rest[open.upperBound...].firstIndex(of: "}") else {
                throw fail(place, "Fn::Sub: ${ without a closing }")
            }
            let name = rest[open.upperBound..<close]
            if name.hasPrefix("!") {
                result += "${\(name.dropFirst())}"
            } else if let value = parameters[String(name)] {
                result += value
            } else if let dot = name.firstIndex(of: "."), resourceTypes[String(name[..<dot])] != nil {
                result += try attribute(String(name[name.index(after: dot)...]), of: String(name[..<dot]), at: place)
            } else if resourceTypes[String(name)] != nil {
                result += try reference(String(name), at: place)
            } else {
                throw fail(place, "Fn::Sub: ${\(name)} names no parameter or resource of this template")
            }
            rest = rest[rest.index(after: close)...]
        }
        return result + rest
    }

    /// `Ref` locally: a parameter's value, or a resource's local name (its logical id, which is
    /// what the emulator names functions and the store's tables; an API is `local`).
    func reference(_ name: String, at place: String) throws -> String {
        if let value = parameters[name] { return value }
        guard let type = resourceTypes[name] else {
            throw fail(
                place,
                "Ref \(name): no such parameter or resource (parameters: \(parameters.keys.sorted().joined(separator: ", ")))"
            )
        }
        return ["AWS::Serverless::HttpApi", "AWS::Serverless::Api"].contains(type) ? "local" : name
    }

    /// `Fn::GetAtt` locally: the `Arn` of a function or a table, in the emulator's account and region.
    func attribute(_ attribute: String, of resource: String, at place: String) throws -> String {
        guard let type = resourceTypes[resource] else {
            throw fail(place, "Fn::GetAtt \(resource).\(attribute): \(resource) is not a resource of this template")
        }
        let region = parameters["AWS::Region"] ?? "us-east-1"
        let account = parameters["AWS::AccountId"] ?? "123456789012"
        switch (type, attribute) {
        case ("AWS::Serverless::Function", "Arn"): return "arn:aws:lambda:\(region):\(account):function:\(resource)"
        case ("AWS::DynamoDB::Table", "Arn"): return "arn:aws:dynamodb:\(region):\(account):table/\(resource)"
        default:
            throw fail(
                place, "Fn::GetAtt \(resource).\(attribute) is not supported here (only .Arn of functions and tables)")
        }
    }

    /// Names intrinsic functions explicitly: they are the usual reason a value is not plain.
    static func describeUnsupported(_ value: JSONValue, wanted: String) -> String {
        if let object = value.objectValue, object.count == 1, let key = object.keys.first,
            key == "Ref" || key.hasPrefix("Fn::")
        {
            return "\(key) is not supported here yet; use \(wanted)"
        }
        return "must be \(wanted)"
    }
}
