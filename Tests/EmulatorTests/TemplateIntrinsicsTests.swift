import Foundation
import Testing

@testable import Emulator

/// `Ref`, `Fn::GetAtt` and `Fn::Sub` in environment values, resolved from the template's
/// parameters and resources.
struct TemplateIntrinsicsTests {
    func template(_ variables: String, parameters: [String: String] = [:]) throws -> Template {
        let text = """
            {"Parameters": {"Base": {"Type": "String", "Default": "http://127.0.0.1:3000"}, "NoDefault": {"Type": "String"}},
             "Resources": {"F": {"Type": "AWS::Serverless::Function",
               "Properties": {"CodeUri": "F", "Environment": {"Variables": {\(variables)}}}}}}
            """
        return try Template.parse(Data(text.utf8), path: "t.json", parameters: parameters)
    }

    @Test func refAndSubTakeDefaultsOverridesAndPseudoParameters() throws {
        let variables = """
            "ISSUER": {"Ref": "Base"}, "JWKS_URL": {"Fn::Sub": "${Base}/.well-known/jwks.json"},
            "WHERE": {"Fn::Sub": "${AWS::Region}:${!Literal}"}
            """
        let defaults = try template(variables).function(named: "F").environment
        #expect(defaults["ISSUER"] == "http://127.0.0.1:3000")
        #expect(defaults["JWKS_URL"] == "http://127.0.0.1:3000/.well-known/jwks.json")
        #expect(defaults["WHERE"] == "us-east-1:${Literal}")
        // Deployed names are built from the stack and the URL suffix.
        let named = try template(#""P": {"Fn::Sub": "/gatehouse/${AWS::StackName}/issuer ${AWS::URLSuffix}"}"#)
        #expect(try named.function(named: "F").environment["P"] == "/gatehouse/local/issuer amazonaws.com")
        let moved = try template(variables, parameters: ["Base": "http://127.0.0.1:4000"]).function(named: "F")
            .environment
        #expect(moved["JWKS_URL"] == "http://127.0.0.1:4000/.well-known/jwks.json")
        #expect(
            try template(#""X": {"Ref": "NoDefault"}"#, parameters: ["NoDefault": "given"]).function(named: "F")
                .environment["X"] == "given")
    }

    /// Resources resolve to their local names and ARNs: what a function is told about a table
    /// or another function works against the emulator.
    @Test func refGetAttAndSubNameResources() throws {
        let variables = """
            "SELF": {"Ref": "F"}, "SELF_ARN": {"Fn::GetAtt": ["F", "Arn"]}, "DOTTED": {"Fn::GetAtt": "F.Arn"},
            "SUBBED": {"Fn::Sub": "${F}|${F.Arn}|${AWS::AccountId}"}
            """
        let environment = try template(variables).function(named: "F").environment
        #expect(environment["SELF"] == "F")
        #expect(environment["SELF_ARN"] == "arn:aws:lambda:us-east-1:123456789012:function:F")
        #expect(environment["DOTTED"] == environment["SELF_ARN"])
        #expect(environment["SUBBED"] == "F|arn:aws:lambda:us-east-1:123456789012:function:F|123456789012")
    }

    @Test(arguments: [
        (
            #""X": {"Ref": "NoDefault"}"#,
            "t.json: Resources.F.Properties.Environment.Variables.X: Ref NoDefault: no such parameter or resource (parameters: AWS::AccountId, AWS::Partition, AWS::Region, AWS::StackName, AWS::URLSuffix, Base)"
        ),
        (
            #""X": {"Fn::Sub": "${Nope}/x"}"#,
            "t.json: Resources.F.Properties.Environment.Variables.X: Fn::Sub: ${Nope} names no parameter or resource of this template"
        ),
        (
            #""X": {"Fn::Sub": ["${A}", {"A": "b"}]}"#,
            "t.json: Resources.F.Properties.Environment.Variables.X: Fn::Sub is supported in its string form only"
        ),
        (
            #""X": {"Fn::Sub": "${Base"}"#,
            "t.json: Resources.F.Properties.Environment.Variables.X: Fn::Sub: ${ without a closing }"
        ),
        (
            #""X": {"Fn::GetAtt": ["F", "Name"]}"#,
            "t.json: Resources.F.Properties.Environment.Variables.X: Fn::GetAtt F.Name is not supported here (only .Arn of functions and tables)"
        ),
        (
            #""X": {"Fn::GetAtt": ["Nope", "Arn"]}"#,
            "t.json: Resources.F.Properties.Environment.Variables.X: Fn::GetAtt Nope.Arn: Nope is not a resource of this template"
        ),
        (
            #""X": {"Fn::Join": ["", ["a"]]}"#,
            "t.json: Resources.F.Properties.Environment.Variables.X: Fn::Join is not supported here yet; use a string, number or boolean"
        ),
    ])
    func unresolvableValuesNameTheirPlace(variables: String, message: String) {
        #expect {
            try template(variables)
        } throws: { error in
            "\(error)" == message
        }
    }
}
