import Emulator
import Foundation
import GatehouseJSON
import Store
import Testing

/// What a deployed function needs from template.json to open DynamoDB: the tables' key schemas
/// (`GATEHOUSE_TABLES`, matching the table resources), and for each table it is named
/// (`TABLE_<LogicalId>`) a policy on exactly that table, and no policy on a table it is not named.
struct DeployedTemplateTests {
    static let templatePath = StoreTemplateTests.repositoryRoot.appendingPathComponent("template.json").path

    @Test func theSchemasLineIsTheTemplatesTables() throws {
        let template = try Template.load(path: Self.templatePath)
        let jwks = try template.function(named: "Jwks")
        let line = try #require(jwks.environment[TableDefinition.environmentVariable])
        #expect(
            try TableDefinition.parseEnvironmentText(line).sorted { $0.name < $1.name }
                == template.tables.sorted { $0.name < $1.name })
    }

    /// Whether the function's sources (Functions/NAME) open the store: import FunctionStore.
    static func importsTheStore(_ function: String) throws -> Bool {
        let directory = StoreTemplateTests.repositoryRoot.appendingPathComponent("Functions/\(function)")
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(!files.isEmpty, "Functions/\(function) has sources")
        return try files.filter { $0.hasSuffix(".swift") }.contains { file in
            try String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8)
                .contains("import FunctionStore")
        }
    }

    @Test func eachFunctionHasAPolicyForExactlyTheTablesItIsNamed() throws {
        let root = try JSONValue(parsing: Array(try Data(contentsOf: URL(fileURLWithPath: Self.templatePath))))
        let resources = try #require(root["Resources"]?.objectValue)
        let tables = Set(resources.filter { $0.value["Type"] == "AWS::DynamoDB::Table" }.keys)
        for (name, resource) in resources where resource["Type"] == "AWS::Serverless::Function" {
            let variables = resource["Properties"]?["Environment"]?["Variables"]?.objectValue ?? [:]
            var named: Set<String> = []
            for (variable, value) in variables where variable.hasPrefix("TABLE_") {
                let table = String(variable.dropFirst("TABLE_".count))
                #expect(value == ["Ref": .string(table)], "\(name).\(variable) is a Ref to its table")
                #expect(tables.contains(table), "\(name) names a table the template has")
                named.insert(table)
            }
            let policies = resource["Properties"]?["Policies"]?.arrayValue ?? []
            let allowed = Set(
                policies.compactMap { policy -> String? in
                    let body = policy["DynamoDBCrudPolicy"] ?? policy["DynamoDBReadPolicy"]
                    return body?["TableName"]?["Ref"]?.stringValue
                })
            #expect(allowed == named, "\(name): policies \(allowed.sorted()) for tables \(named.sorted())")
            #expect(
                !named.isEmpty == (try Self.importsTheStore(name)), "\(name) is named a table iff it opens the store")
        }
    }

    /// The tables that hold accounts outlive the stack (a delete or a replacement keeps them)
    /// and can be restored to any second of the last 35 days; tables of short-lived items
    /// (codes, links, sessions, counters) are neither.
    @Test func accountTablesAreRetainedWithPointInTimeRecovery() throws {
        let root = try JSONValue(parsing: Array(try Data(contentsOf: URL(fileURLWithPath: Self.templatePath))))
        let resources = try #require(root["Resources"]?.objectValue)
        let accounts: Set<String> = ["Users", "UserIndex", "Passwords", "Apps"]
        for (name, resource) in resources where resource["Type"] == "AWS::DynamoDB::Table" {
            let kept = accounts.contains(name)
            #expect((resource["DeletionPolicy"] == "Retain") == kept, "\(name)")
            #expect((resource["UpdateReplacePolicy"] == "Retain") == kept, "\(name)")
            let recovery = resource["Properties"]?["PointInTimeRecoverySpecification"]?["PointInTimeRecoveryEnabled"]
            #expect((recovery == true) == kept, "\(name)")
        }
        #expect(accounts.allSatisfy { resources[$0] != nil })
    }

    /// Every function's `STAGE` is the deploy's `Stage`: `prod` resolves to `prod` everywhere.
    @Test func everyFunctionsStageIsTheStageParameter() throws {
        let prod = try Template.load(path: Self.templatePath, parameters: ["Stage": "prod"])
        let local = try Template.load(path: Self.templatePath)
        for (name, function) in prod.functions {
            #expect(function.environment["STAGE"] == "prod", "\(name)")
            #expect(try local.function(named: name).environment["STAGE"] == "dev", "\(name)")
        }
        #expect(prod.functions.count >= 23)
    }

    /// What an operator expects of a deployed stack: JSON logs at a chosen level (Lambda's own
    /// filtering), default route throttling, the request metric's namespace on every function
    /// and an alarm on its failure rate, and outputs for the API, its JWKS and every table.
    @Test func operationsDefaultsAreInTheTemplate() throws {
        let root = try JSONValue(parsing: Array(try Data(contentsOf: URL(fileURLWithPath: Self.templatePath))))
        let globals = try #require(root["Globals"]?["Function"])
        #expect(globals["LoggingConfig"]?["LogFormat"] == "JSON")
        #expect(globals["LoggingConfig"]?["ApplicationLogLevel"] == ["Ref": "LogLevel"])
        #expect(globals["Environment"]?["Variables"]?["AWS_LAMBDA_LOG_LEVEL"] == nil, "LoggingConfig sets it")
        let namespace = try #require(globals["Environment"]?["Variables"]?["METRICS_NAMESPACE"])
        let resources = try #require(root["Resources"]?.objectValue)
        let routes = resources["GatehouseApi"]?["Properties"]?["DefaultRouteSettings"]
        #expect(routes?["ThrottlingBurstLimit"] == ["Ref": "ThrottlingBurstLimit"])
        #expect(routes?["ThrottlingRateLimit"] == ["Ref": "ThrottlingRateLimit"])
        let alarm = try #require(resources["FailureRateAlarm"]?["Properties"])
        let queries = alarm["Metrics"]?.arrayValue ?? []
        let stats = queries.compactMap { $0["MetricStat"]?["Metric"] }
        #expect(stats.count == 4)
        #expect(stats.allSatisfy { $0["Namespace"] == namespace && $0["MetricName"] == "Requests" })
        #expect(
            Set(stats.compactMap { $0["Dimensions"]?.arrayValue?.first?["Value"]?.stringValue }) == [
                "ok", "refused", "limited", "failed",
            ])
        let outputs = try #require(root["Outputs"]?.objectValue)
        #expect(outputs["ApiUrl"] != nil && outputs["JwksUrl"] != nil)
        for (name, resource) in resources where resource["Type"] == "AWS::DynamoDB::Table" {
            #expect(outputs["\(name)Table"]?["Value"] == ["Ref": .string(name)], "\(name)")
        }
    }

    /// `sam build` builds every function through the Makefile (see PackageTests for one run).
    @Test func everyFunctionIsBuiltByTheMakefile() throws {
        let root = try JSONValue(parsing: Array(try Data(contentsOf: URL(fileURLWithPath: Self.templatePath))))
        let resources = try #require(root["Resources"]?.objectValue)
        for (name, resource) in resources where resource["Type"] == "AWS::Serverless::Function" {
            #expect(resource["Metadata"]?["BuildMethod"] == "makefile", "\(name)")
            #expect(resource["Metadata"]?["ContextPath"] == ".", "\(name)")
        }
        let makefile = try String(
            contentsOf: StoreTemplateTests.repositoryRoot.appendingPathComponent("Makefile"), encoding: .utf8)
        #expect(makefile.contains("build-%:"))
    }

    /// The delivery providers' secrets: each function that emails (`EMAIL_DELIVERY`) is given
    /// Resend's key's secret and, only when `EmailDelivery` is `resend`, the right to read that
    /// one secret; each that sends phone codes (`SMS_DELIVERY`), Twilio's; no other function
    /// either.
    @Test func onlyTheFunctionsThatSendMayReadTheProvidersSecrets() throws {
        let root = try JSONValue(parsing: Array(try Data(contentsOf: URL(fileURLWithPath: Self.templatePath))))
        let resources = try #require(root["Resources"]?.objectValue)
        #expect(root["Parameters"]?["EmailDelivery"]?["AllowedValues"] == ["outbox", "ses", "resend"])
        #expect(root["Parameters"]?["SmsDelivery"]?["AllowedValues"] == ["outbox", "sns", "twilio"])
        let providers = [
            (
                method: "EMAIL_DELIVERY", variable: "RESEND_API_KEY_SECRET", secret: "ResendApiKeySecret",
                when: "UsesResend"
            ),
            (method: "SMS_DELIVERY", variable: "TWILIO_SECRET", secret: "TwilioSecret", when: "UsesTwilio"),
        ]
        var sending: [String: Int] = [:]
        for (name, resource) in resources where resource["Type"] == "AWS::Serverless::Function" {
            let variables = resource["Properties"]?["Environment"]?["Variables"]?.objectValue ?? [:]
            let policies = resource["Properties"]?["Policies"]?.arrayValue ?? []
            for provider in providers {
                let sends = variables[provider.method] != nil
                let reading = policies.filter {
                    String(decoding: $0.serializedBytes, as: UTF8.self).contains("\"\(provider.secret)\"")
                }
                if sends { sending[provider.method, default: 0] += 1 }
                #expect((variables[provider.variable] == ["Ref": .string(provider.secret)]) == sends, "\(name)")
                #expect(reading.count == (sends ? 1 : 0), "\(name): \(provider.secret)")
                guard let policy = reading.first else { continue }
                #expect(
                    policy
                        == [
                            "Fn::If": [
                                .string(provider.when),
                                [
                                    "AWSSecretsManagerGetSecretValuePolicy": [
                                        "SecretArn": ["Ref": .string(provider.secret)]
                                    ]
                                ],
                                ["Ref": "AWS::NoValue"],
                            ]
                        ], "\(name)")
            }
        }
        #expect(sending == ["EMAIL_DELIVERY": 8, "SMS_DELIVERY": 2])
    }
}
