import Foundation
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
                    name: "Gate", function: "Gate", identityHeaders: ["authorization"], reauthorizeEvery: 60,
                    simpleResponses: true))
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
            "", "t.json: Resources.F.Properties.Events.A: no Lambda authorizer named Nope on its API"
        ),
        (
            "", #""Auth": {"Authorizers": {"J": {"JwtConfiguration": {}}}}"#,
            "t.json: Resources.Api.Properties.Auth.Authorizers.J: JWT authorizers are not supported; use a Lambda authorizer (FunctionArn)"
        ),
        (
            "",
            #""Auth": {"Authorizers": {"L": {"FunctionArn": {"Fn::GetAtt": ["Gate", "Arn"]}, "AuthorizerPayloadFormatVersion": "2.0"}}}"#,
            "t.json: Resources.Api.Properties.Auth.Authorizers.L.EnableSimpleResponses: must be true: IAM policy answers are not supported"
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
