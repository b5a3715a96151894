import Foundation
import LambdaRuntime
import Testing

@testable import Emulator

/// Routes and authorizers read from a template, and the mistakes refused at start-up.
struct TemplateRouteTests {
    func template(events: String, auth: String = "") throws -> Template {
        let text = """
            {"Resources": {
              "Api": {"Type": "AWS::Serverless::HttpApi", "Properties": {\(auth)}},
              "Gate": {"Type": "AWS::Serverless::Function", "Properties": {"CodeUri": "Gate"}},
              "F": {"Type": "AWS::Serverless::Function", "Properties": {"CodeUri": "F", "Events": {\(events)}}}
            }}
            """
        return try Template.parse(Data(text.utf8), path: "t.json")
    }

    /// `AllowOrigins` may be a CommaDelimitedList parameter's `Ref` (split at its commas, the
    /// override's value over the default) or a list whose items are parameters' `Ref`s.
    @Test func corsOriginsMayComeFromParameters() throws {
        let text = """
            {"Parameters": {"Origins": {"Type": "CommaDelimitedList", "Default": "*"},
                            "Admin": {"Type": "String", "Default": "https://admin.example"}},
             "Resources": {
              "Api": {"Type": "AWS::Serverless::HttpApi", "Properties": {
                "CorsConfiguration": {"AllowOrigins": {"Ref": "Origins"}, "AllowHeaders": [{"Ref": "Admin"}, "apikey"]}}},
              "F": {"Type": "AWS::Serverless::Function", "Properties": {"CodeUri": "F", "Events": {
                "A": {"Type": "HttpApi", "Properties": {"ApiId": {"Ref": "Api"}, "Path": "/a", "Method": "GET"}}}}}
            }}
            """
        let byDefault = try Template.parse(Data(text.utf8), path: "t.json")
        #expect(byDefault.routes.first?.cors?.allowOrigins == ["*"])
        #expect(byDefault.routes.first?.cors?.allowHeaders == ["https://admin.example", "apikey"])
        let overridden = try Template.parse(
            Data(text.utf8), path: "t.json", parameters: ["Origins": "https://a.example, https://b.example"])
        #expect(overridden.routes.first?.cors?.allowOrigins == ["https://a.example", "https://b.example"])
        #expect(overridden.routes.first?.cors?.allowedOrigin("https://c.example") == nil)
    }

    let gate = """
        "Auth": {"DefaultAuthorizer": "Gate", "Authorizers": {"Gate": {"FunctionArn": {"Fn::GetAtt": ["Gate", "Arn"]},
          "AuthorizerPayloadFormatVersion": "2.0", "EnableSimpleResponses": true,
          "Identity": {"Headers": ["Authorization"], "ReauthorizeEvery": 60}}}}
        """

    @Test func routesTakeTheirAPIsDefaultAuthorizerUnlessNone() throws {
        let parsed = try template(
            events: """
                "A": {"Type": "HttpApi", "Properties": {"ApiId": {"Ref": "Api"}, "Path": "/a", "Method": "get"}},
                "B": {"Type": "HttpApi", "Properties": {"ApiId": {"Ref": "Api"}, "Path": "/b", "Method": "POST",
                  "Auth": {"Authorizer": "NONE"}}},
                "S": {"Type": "Schedule", "Properties": {}}
                """, auth: gate)
        #expect(parsed.routes.map(\.routeKey) == ["GET /a", "POST /b"])
        #expect(parsed.routes.map(\.authorizer) == ["Gate", nil])
        #expect(
            parsed.authorizers["Gate"]
                == LambdaAuthorizer(
                    name: "Gate", function: "Gate", api: .httpAPI, payloadType: .request, payloadFormat: .v2,
                    identityHeaders: ["authorization"], reauthorizeEvery: 60, simpleResponses: true))
    }

    /// A REST API gives its routes payload 1.0, its stage and binary media types; its
    /// authorizers are TOKEN (the default) or REQUEST, answered with IAM policies.
    @Test func restAPIsGiveRoutesTheirStageBinaryTypesAndAuthorizers() throws {
        let text = """
            {"Resources": {
              "Rest": {"Type": "AWS::Serverless::Api", "Properties": {"StageName": "dev",
                "BinaryMediaTypes": ["image~1png", "*~1*"],
                "Auth": {"DefaultAuthorizer": "T", "Authorizers": {
                  "T": {"FunctionArn": {"Fn::GetAtt": ["Gate", "Arn"]},
                        "Identity": {"ValidationExpression": "^Bearer .+$"}},
                  "R": {"FunctionArn": {"Fn::GetAtt": ["Gate", "Arn"]}, "FunctionPayloadType": "REQUEST",
                        "Identity": {"Headers": ["X-Key", "X-App"], "ReauthorizeEvery": 0}}}}}},
              "Gate": {"Type": "AWS::Serverless::Function", "Properties": {"CodeUri": "Gate"}},
              "F": {"Type": "AWS::Serverless::Function", "Properties": {"CodeUri": "F", "Events": {
                "A": {"Type": "Api", "Properties": {"RestApiId": {"Ref": "Rest"}, "Path": "/a", "Method": "get"}},
                "B": {"Type": "Api", "Properties": {"RestApiId": {"Ref": "Rest"}, "Path": "/b", "Method": "post",
                  "Auth": {"Authorizer": "R"}}},
                "C": {"Type": "Api", "Properties": {"Path": "/c", "Method": "get"}}}}}
            }}
            """
        let parsed = try Template.parse(Data(text.utf8), path: "t.json")
        #expect(parsed.routes.map(\.routeKey) == ["GET /a", "POST /b", "GET /c"])
        #expect(parsed.routes.map(\.kind) == [.rest, .rest, .rest])
        #expect(parsed.routes.map(\.payloadFormat) == [.v1, .v1, .v1])
        #expect(parsed.routes.map(\.stage) == ["dev", "dev", "Prod"])
        #expect(parsed.routes.map(\.authorizer) == ["T", "R", nil])
        #expect(parsed.routes[0].binaryMediaTypes == ["image/png", "*/*"])
        #expect(
            parsed.authorizers["T"]
                == LambdaAuthorizer(
                    name: "T", function: "Gate", api: .rest, payloadType: .token, payloadFormat: .v1,
                    identityHeaders: ["authorization"], reauthorizeEvery: 300, simpleResponses: false,
                    validationExpression: "^Bearer .+$"))
        #expect(parsed.authorizers["R"]?.identityHeaders == ["x-key", "x-app"])
        #expect(parsed.authorizers["R"]?.payloadType == .request)
        #expect(parsed.authorizers["R"]?.reauthorizeEvery == 0)
    }

    @Test(arguments: [
        (
            #""A": {"Type": "HttpApi", "Properties": {"Path": "/a", "Method": "FETCH"}}"#, "",
            "t.json: Resources.F.Properties.Events.A.Properties.Method: FETCH is not an HTTP method API Gateway routes (or ANY)"
        ),
        (
            #""A": {"Type": "HttpApi", "Properties": {"Path": "a/b"}}"#, "",
            "t.json: Resources.F.Properties.Events.A.Properties.Path: must start with /"
        ),
        (
            #""A": {"Type": "HttpApi", "Properties": {"Path": "/{p+}/x"}}"#, "",
            "t.json: Resources.F.Properties.Events.A.Properties.Path: {p+}: a greedy parameter must be the last segment"
        ),
        (
            #""A": {"Type": "HttpApi", "Properties": {"ApiId": {"Ref": "Api"}, "Path": "/a", "Auth": {"Authorizer": "Nope"}}}"#,
            "", "t.json: Resources.F.Properties.Events.A: no authorizer named Nope"
        ),
        (
            "", #""Auth": {"Authorizers": {"J": {"JwtConfiguration": {}}}}"#,
            "t.json: Resources.Api.Properties.Auth.Authorizers.J.JwtConfiguration: needs an issuer"
        ),
        (
            "", #""Auth": {"Authorizers": {"J": {"JwtConfiguration": {"issuer": "https://id.example.com"}}}}"#,
            "t.json: Resources.Api.Properties.Auth.Authorizers.J.JwtConfiguration.audience: must list at least one audience"
        ),
        (
            "",
            #""Auth": {"Authorizers": {"J": {"JwtConfiguration": {"issuer": "https://id.example.com", "audience": ["a"]}, "IdentitySource": "$request.querystring.t"}}}"#,
            "t.json: Resources.Api.Properties.Auth.Authorizers.J.IdentitySource: must be one header: $request.header.<Name>"
        ),
        (
            "",
            #""Auth": {"Authorizers": {"L": {"FunctionArn": {"Fn::GetAtt": ["Gate", "Arn"]}, "AuthorizerPayloadFormatVersion": "1.0", "EnableSimpleResponses": true}}}"#,
            "t.json: Resources.Api.Properties.Auth.Authorizers.L.EnableSimpleResponses: simple responses need AuthorizerPayloadFormatVersion \"2.0\""
        ),
        (
            "",
            #""Auth": {"Authorizers": {"L": {"FunctionArn": {"Fn::GetAtt": ["Gate", "Arn"]}, "AuthorizerPayloadFormatVersion": "2.0", "Identity": {"QueryStrings": ["k"]}}}}"#,
            "t.json: Resources.Api.Properties.Auth.Authorizers.L.Identity.QueryStrings: only headers are supported as identity sources"
        ),
        (
            "", #""CorsConfiguration": {"AllowOrigins": "*"}"#,
            "t.json: Resources.Api.Properties.CorsConfiguration.AllowOrigins: must be a list of strings"
        ),
        (
            "", #""CorsConfiguration": {"AllowOrigins": ["https://a.example", "*"], "AllowCredentials": true}"#,
            #"t.json: Resources.Api.Properties.CorsConfiguration.AllowCredentials: cannot be true while the allowed origins include "*"; name the origins"#
        ),
        (
            "", #""CorsConfiguration": {"AllowOrigins": ["https://a.example"], "MaxAge": 1e300}"#,
            "t.json: Resources.Api.Properties.CorsConfiguration.MaxAge: must be a whole number of seconds"
        ),
        (
            #""A": {"Type": "HttpApi", "Properties": {"ApiId": {"Ref": "Gate"}, "Path": "/a"}}"#, "",
            "t.json: Resources.F.Properties.Events.A.Properties.ApiId: Gate is not an AWS::Serverless::HttpApi of this template"
        ),
    ])
    func mistakesNameTheirPlace(events: String, auth: String, message: String) {
        #expect {
            try template(events: events, auth: auth)
        } throws: { error in
            "\(error)" == message
        }
    }
}
