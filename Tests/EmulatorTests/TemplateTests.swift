import Foundation
import StoreCore
import Testing

@testable import Emulator

struct TemplateTests {
    static let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    func parse(_ json: String) throws -> Template {
        try Template.parse(Data(json.utf8), path: "t.json")
    }

    @Test func theProjectTemplateDefinesJwksWithGlobalsApplied() throws {
        let template = try Template.load(
            path: Self.repositoryRoot.appendingPathComponent("template.json").path,
            parameters: ["EmailDelivery": "outbox", "SmsDelivery": "outbox"])
        let jwks = try template.function(named: "Jwks")
        #expect(jwks.codeUri == "Functions/Jwks")
        #expect(jwks.productName == "Jwks")
        #expect(jwks.runtime == "provided.al2023")
        #expect(jwks.handler == "bootstrap")
        #expect(jwks.timeoutSeconds == 3)
        #expect(jwks.memorySize == 128)
        #expect(jwks.environment["STAGE"] == "dev")
        #expect(template.directory == Self.repositoryRoot.standardizedFileURL.path)
    }

    @Test func functionValuesWinOverGlobalsAndEnvironmentsMerge() throws {
        let template = try parse(
            """
            {"Globals":{"Function":{"Timeout":7,"MemorySize":512,"CodeUri":"Functions/Shared",
              "Environment":{"Variables":{"A":"global","B":"global","N":3,"F":true}}}},
             "Resources":{
              "One":{"Type":"AWS::Serverless::Function","Properties":{"CodeUri":"Functions/One","Timeout":2,
                "Environment":{"Variables":{"B":"own"}}}},
              "Two":{"Type":"AWS::Serverless::Function"},
              "Table":{"Type":"AWS::DynamoDB::Table","Properties":{
                "AttributeDefinitions":[{"AttributeName":"id","AttributeType":"S"}],
                "KeySchema":[{"AttributeName":"id","KeyType":"HASH"}]}}}}
            """
        )
        #expect(template.functions.keys.sorted() == ["One", "Two"])
        #expect(template.tables.map(\.name) == ["Table"])
        let one = try template.function(named: "One")
        #expect(one.timeoutSeconds == 2)
        #expect(one.memorySize == 512)
        #expect(one.environment == ["A": "global", "B": "own", "N": "3", "F": "true"])
        let two = try template.function(named: "Two")
        #expect(two.codeUri == "Functions/Shared")
        #expect(two.timeoutSeconds == 7)
        #expect(two.architectures == ["x86_64"])
    }

    /// `LoggingConfig` reaches the function as Lambda hands it over: the JSON format with its
    /// application level, from Globals unless the function sets its own; an explicit variable
    /// wins; a level Lambda does not have is refused with its place.
    @Test func loggingConfigBecomesTheLogVariables() throws {
        let template = try parse(
            """
            {"Parameters":{"LogLevel":{"Type":"String","Default":"WARN"}},
             "Globals":{"Function":{"CodeUri":"x","LoggingConfig":{"LogFormat":"JSON","ApplicationLogLevel":{"Ref":"LogLevel"}}}},
             "Resources":{
              "One":{"Type":"AWS::Serverless::Function"},
              "Two":{"Type":"AWS::Serverless::Function","Properties":{"LoggingConfig":{"LogFormat":"Text"}}},
              "Three":{"Type":"AWS::Serverless::Function","Properties":{
                "Environment":{"Variables":{"AWS_LAMBDA_LOG_LEVEL":"DEBUG"}}}}}}
            """
        )
        #expect(
            try template.function(named: "One").environment == [
                "AWS_LAMBDA_LOG_FORMAT": "JSON", "AWS_LAMBDA_LOG_LEVEL": "WARN",
            ])
        #expect(try template.function(named: "Two").environment == ["AWS_LAMBDA_LOG_FORMAT": "Text"])
        #expect(try template.function(named: "Three").environment["AWS_LAMBDA_LOG_LEVEL"] == "DEBUG")
        #expect(throws: TemplateError.self) {
            try parse(
                #"{"Resources":{"F":{"Type":"AWS::Serverless::Function","Properties":{"CodeUri":"x","LoggingConfig":{"LogFormat":"JSON","ApplicationLogLevel":"LOUD"}}}}}"#
            )
        }
        let project = try Template.load(
            path: Self.repositoryRoot.appendingPathComponent("template.json").path,
            parameters: ["EmailDelivery": "outbox", "SmsDelivery": "outbox"])
        #expect(try project.function(named: "Jwks").environment["AWS_LAMBDA_LOG_LEVEL"] == "INFO")
    }

    @Test func samDefaultsApplyWhenNothingIsSet() throws {
        let function = try parse(
            #"{"Resources":{"F":{"Type":"AWS::Serverless::Function","Properties":{"CodeUri":"x"}}}}"#
        )
        .function(named: "F")
        #expect(function.timeoutSeconds == 3)
        #expect(function.memorySize == 128)
        #expect(function.environment.isEmpty)
    }

    @Test(arguments: [
        ("{\"Resources\": [", "t.json is not valid JSON"),
        ("[]", "t.json: the top level: must be a JSON object"),
        ("{}", "t.json: Resources: is missing"),
        (#"{"Resources":{"F":{"Properties":{}}}}"#, "t.json: Resources.F.Type: is missing"),
        (
            #"{"Resources":{"F":{"Type":"AWS::Serverless::Function","Properties":{}}}}"#,
            "t.json: Resources.F.Properties.CodeUri: is missing"
        ),
        (
            #"{"Resources":{"F":{"Type":"AWS::Serverless::Function","Properties":{"CodeUri":"x","Timeout":"3"}}}}"#,
            "t.json: Resources.F.Properties.Timeout: must be a number"
        ),
        (
            #"{"Resources":{"F":{"Type":"AWS::Serverless::Function","Properties":{"CodeUri":"x","Timeout":901}}}}"#,
            "t.json: Resources.F.Properties.Timeout: must be between 1 and 900 seconds"
        ),
        (
            #"{"Globals":{"Function":{"MemorySize":64}},"Resources":{"F":{"Type":"AWS::Serverless::Function","Properties":{"CodeUri":"x"}}}}"#,
            "t.json: Globals.Function.MemorySize: must be a whole number of MB between 128 and 10240"
        ),
        (
            #"{"Resources":{"F":{"Type":"AWS::Serverless::Function","Properties":{"CodeUri":"x","Environment":{"Variables":{"URL":{"Fn::Sub":"${Api}"}}}}}}}"#,
            "t.json: Resources.F.Properties.Environment.Variables.URL: Fn::Sub: ${Api} names no parameter or resource of this template"
        ),
        (
            #"{"Resources":{"F":{"Type":"AWS::Serverless::Function","Properties":{"CodeUri":"x","Architectures":["ppc"]}}}}"#,
            "t.json: Resources.F.Properties.Architectures: must be [\"x86_64\"] or [\"arm64\"]"
        ),
    ])
    func aBrokenTemplateIsRefusedNamingThePlace(json: String, message: String) {
        #expect {
            try parse(json)
        } throws: { error in
            "\(error)".hasPrefix(message)
        }
    }

    @Test func anUnknownFunctionListsTheOnesThereAre() throws {
        let template = try parse(
            #"{"Resources":{"B":{"Type":"AWS::Serverless::Function","Properties":{"CodeUri":"b"}},"A":{"Type":"AWS::Serverless::Function","Properties":{"CodeUri":"a"}}}}"#
        )
        #expect(throws: TemplateError.unknownFunction(name: "Nope", available: ["A", "B"])) {
            try template.function(named: "Nope")
        }
        #expect(
            "\(TemplateError.unknownFunction(name: "Nope", available: ["A", "B"]))"
                == "no function named Nope in the template; functions: A, B")
    }
}
