import Emulator
import Foundation
import GatehouseJSON
import Packaging
import Store
import Testing

/// What a deploy gets from the template, checked on both `template.json` and the packaged
/// `dist/template.json` (written here from it as `gatehouse package` writes it), resolved with the
/// parameters a production deploy passes: the tables' key schemas (`GATEHOUSE_TABLES`), for each
/// table a function is named (`TABLE_<LogicalId>`) a policy on exactly that table, the account
/// tables kept, `STAGE` from the deploy, the Authorizer's audiences, and delivery chosen on purpose.
struct DeployedTemplateTests {
    static let templatePath = StoreTemplateTests.repositoryRoot.appendingPathComponent("template.json").path
    /// What `sam deploy --parameter-overrides` must give for production: the parameters without
    /// a default, and the stage.
    static let prod = ["Stage": "prod", "EmailDelivery": "ses", "SmsDelivery": "sns"]

    /// The template a deploy uses.
    enum Flavour: String, CaseIterable, Sendable {
        /// `template.json`, for `sam build` and `sam deploy`.
        case source
        /// `dist/template.json`, for `sam deploy --template-file dist/template.json`.
        case packaged

        /// Its path; the packaged one written to a folder of its own, with a zip per function
        /// (empty: only their names matter to the template).
        func path() throws -> String {
            guard self == .packaged else { return DeployedTemplateTests.templatePath }
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("dist-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let source = try Template.load(path: DeployedTemplateTests.templatePath, parameters: prod)
            for name in source.functions.keys {
                try Data().write(to: folder.appendingPathComponent("\(name).zip"))
            }
            let missing = try PackagedTemplate.write(
                template: DeployedTemplateTests.templatePath, output: folder.path, target: .al2023,
                architecture: "x86_64")
            #expect(missing.isEmpty)
            return folder.appendingPathComponent("template.json").path
        }

        /// Its JSON as it is.
        func root() throws -> JSONValue {
            try JSONValue(parsing: Array(try Data(contentsOf: URL(fileURLWithPath: try path()))))
        }
    }

    @Test(arguments: Flavour.allCases)
    func theSchemasLineIsTheTemplatesTables(_ flavour: Flavour) throws {
        let template = try Template.load(path: flavour.path(), parameters: Self.prod)
        let jwks = try template.function(named: "Jwks")
        let line = try #require(jwks.environment[TableDefinition.environmentVariable])
        #expect(
            try TableDefinition.parseEnvironmentText(line).sorted { $0.name < $1.name }
                == template.tables.sorted { $0.name < $1.name })
    }

    /// The resources of the `ssm:GetParameter` statements `policies` allow.
    static func parameterReads(_ policies: [JSONValue]) -> [JSONValue] {
        var resources: [JSONValue] = []
        for policy in policies {
            for statement in policy["Statement"]?.arrayValue ?? [] {
                guard statement["Effect"]?.stringValue == "Allow",
                    statement["Action"]?.stringValue == "ssm:GetParameter", let resource = statement["Resource"]
                else { continue }
                resources.append(resource)
            }
        }
        return resources
    }

    /// Whether the function's sources (Functions/NAME) open the store: import FunctionStore.
    static func importsTheStore(_ function: String) throws -> Bool {
        try sources(of: function).contains("import FunctionStore")
    }

    /// The function's Swift sources (Functions/NAME, or the folder its `CodeUri` names: the
    /// `aal2` authorizer runs the authorizer's code), one text.
    static func sources(of function: String) throws -> String {
        let template = try JSONValue(
            parsing: Array(
                try Data(contentsOf: StoreTemplateTests.repositoryRoot.appendingPathComponent("template.json"))))
        let folder = template["Resources"]?[function]?["Properties"]?["CodeUri"]?.stringValue ?? "Functions/\(function)"
        let directory = StoreTemplateTests.repositoryRoot.appendingPathComponent(folder)
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter {
            $0.hasSuffix(".swift")
        }
        #expect(!files.isEmpty, "Functions/\(function) has sources")
        return try files.map { try String(contentsOf: directory.appendingPathComponent($0), encoding: .utf8) }
            .joined(separator: "\n")
    }

    @Test(arguments: Flavour.allCases)
    func eachFunctionHasAPolicyForExactlyTheTablesItIsNamed(_ flavour: Flavour) throws {
        let resources = try #require(try flavour.root()["Resources"]?.objectValue)
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
            let allowed = Set(LeastPrivilegeTests.allowedActions(policies).keys)
            #expect(allowed == named, "\(name): policies \(allowed.sorted()) for tables \(named.sorted())")
            #expect(
                !named.isEmpty == (try Self.importsTheStore(name)), "\(name) is named a table iff it opens the store")
        }
    }

    /// The tables that hold accounts outlive the stack (a delete or a replacement keeps them)
    /// and can be restored to any second of the last 35 days; tables of short-lived items
    /// (codes, links, sessions, counters) are neither. A table is one or the other whole: its
    /// three settings agree, so a new table is decided once (ARCHITECTURE.md's checklist), in
    /// the template alone. Those that hold who the users are and how they sign in are kept.
    @Test(arguments: Flavour.allCases)
    func accountTablesAreRetainedWithPointInTimeRecovery(_ flavour: Flavour) throws {
        let resources = try #require(try flavour.root()["Resources"]?.objectValue)
        var kept: Set<String> = []
        for (name, resource) in resources where resource["Type"] == "AWS::DynamoDB::Table" {
            let retained = resource["DeletionPolicy"] == "Retain"
            if retained { kept.insert(name) }
            #expect((resource["UpdateReplacePolicy"] == "Retain") == retained, "\(name)")
            let recovery = resource["Properties"]?["PointInTimeRecoverySpecification"]?["PointInTimeRecoveryEnabled"]
            #expect((recovery == true) == retained, "\(name)")
        }
        #expect(Set(["Users", "UserIndex", "Passwords", "Apps"]).subtracting(kept).sorted() == [])
        #expect(kept.isDisjoint(with: ["Sessions", "RefreshTokens", "RateLimits", "AuthCodes"]))
    }

    /// Every function's `STAGE` is the deploy's `Stage`: `prod` resolves to `prod` everywhere.
    @Test(arguments: Flavour.allCases)
    func everyFunctionsStageIsTheStageParameter(_ flavour: Flavour) throws {
        let path = try flavour.path()
        let prod = try Template.load(path: path, parameters: Self.prod)
        let local = try Template.load(path: path, parameters: ["EmailDelivery": "outbox", "SmsDelivery": "outbox"])
        for (name, function) in prod.functions {
            #expect(function.environment["STAGE"] == "prod", "\(name)")
            #expect(try local.function(named: name).environment["STAGE"] == "dev", "\(name)")
        }
        #expect(prod.functions.count >= 23)
    }

    /// The Authorizer takes any registered app's tokens: no fixed `JWT_AUDIENCE` (it was the
    /// literal `demo`), the `Apps` table named, and only read.
    @Test(arguments: Flavour.allCases)
    func theAuthorizersAudienceIsEveryRegisteredApp(_ flavour: Flavour) throws {
        let path = try flavour.path()
        let authorizer = try Template.load(path: path, parameters: Self.prod).function(named: "Authorizer")
        #expect(authorizer.environment["JWT_AUDIENCE"] == nil)
        #expect(authorizer.environment["TABLE_Apps"] == "Apps")
        let resource = try #require(try flavour.root()["Resources"]?["Authorizer"])
        let policies = resource["Properties"]?["Policies"]?.arrayValue ?? []
        #expect(LeastPrivilegeTests.allowedActions(policies)["Apps"] == ["dynamodb:GetItem", "dynamodb:Query"])
    }

    /// `EmailDelivery` and `SmsDelivery` have no default: a deploy names `ses`/`sns` or, on
    /// purpose, `outbox`; a template resolved without them is refused, as CloudFormation
    /// refuses a stack missing a parameter. Given, they reach every function that sends.
    @Test(arguments: Flavour.allCases)
    func deliveryIsChosenByTheDeploy(_ flavour: Flavour) throws {
        let path = try flavour.path()
        let parameters = try #require(try flavour.root()["Parameters"])
        for (name, values) in [
            ("EmailDelivery", ["outbox", "ses", "resend"]), ("SmsDelivery", ["outbox", "sns", "twilio"]),
        ] {
            #expect(parameters[name]?["Default"] == nil, "\(name)")
            #expect(parameters[name]?["AllowedValues"] == .array(values.map { .string($0) }), "\(name)")
        }
        #expect(throws: TemplateError.self) { try Template.load(path: path, parameters: ["Stage": "prod"]) }
        let prod = try Template.load(path: path, parameters: Self.prod)
        let senders = prod.functions.values.filter { $0.environment["EMAIL_DELIVERY"] != nil }
        #expect(senders.count == 9)
        #expect(senders.allSatisfy { $0.environment["EMAIL_DELIVERY"] == "ses" })
        #expect(try prod.function(named: "OtpRequest").environment["SMS_DELIVERY"] == "sns")
    }

    /// By default the issuer is the HTTP API's own URL, with nothing to guess and nothing to
    /// fetch: every function is given the domain the API's URL is under (`ISSUER_API_DOMAIN`,
    /// from the region and the URL suffix, which is no circle: naming the API would be one, since
    /// its routes name the functions) and builds the issuer from each event's `apiId`. No
    /// function reads a parameter for it. `ApiBaseUrl` set (a custom domain) is the issuer instead.
    @Test(arguments: Flavour.allCases)
    func theIssuerIsTheAPIsOwnURLUnlessACustomDomainIsGiven(_ flavour: Flavour) throws {
        let path = try flavour.path()
        let root = try flavour.root()
        let stack = [
            "AWS::StackName": "auth", "AWS::Region": "eu-west-1", "AWS::URLSuffix": "amazonaws.com",
            "AWS::Partition": "aws", "AWS::AccountId": "123456789012",
        ]
        let deployed = CloudFormationValues(root: root, parameters: Self.prod.merging(stack) { $1 }, apiID: "abc123")
        #expect(root["Resources"]?["IssuerParameter"] == nil, "nothing to read at a cold start")
        // The API's own URL, as the output names it, is what a function builds from an event of it.
        let url = try deployed.value(root["Outputs"]?["ApiUrl"]?["Value"])
        #expect(url == "https://abc123.execute-api.eu-west-1.amazonaws.com")
        let prod = try Template.load(path: path, parameters: Self.prod.merging(stack) { $1 })
        let resources = try #require(root["Resources"]?.objectValue)
        for (functionName, function) in prod.functions {
            #expect(function.environment["ISSUER"] == "", "\(functionName) builds its issuer")
            #expect(
                function.environment["ISSUER_API_DOMAIN"] == "execute-api.eu-west-1.amazonaws.com", "\(functionName)")
            #expect(url == "https://abc123.\(function.environment["ISSUER_API_DOMAIN"] ?? "")")
            #expect(function.environment["ISSUER_PARAMETER"] == nil, "\(functionName)")
            // Naming the API in a function's environment would be a circle: its routes name the functions.
            let own = resources[functionName]?["Properties"]?["Environment"]
            #expect(own.map { !$0.serialized.contains("GatehouseApi") } ?? true, "\(functionName)")
            // The one parameter a function may read is the public keys', when it checks or serves
            // tokens with them alone (Jwks, SupabaseLogout, the Authorizer).
            let policies = resources[functionName]?["Properties"]?["Policies"]?.arrayValue ?? []
            let readable = try Self.parameterReads(policies).map { try deployed.value($0) }
            let sources = try Self.sources(of: functionName)
            let publicKeys = sources.contains("PublicKeysParameter") || sources.contains("starting(publicKeys: true")
            let keysARN = "arn:aws:ssm:eu-west-1:123456789012:parameter/gatehouse/auth/public-keys"
            #expect(readable == (publicKeys ? [keysARN] : []), "\(functionName)")
            #expect((function.environment["PUBLIC_KEYS_PARAMETER"] != nil) == publicKeys, "\(functionName)")
        }
        #expect(!(root["Globals"]?.serialized.contains("GatehouseApi") ?? true))
        // The Authorizer follows the same rule: its issuer is ISSUER, its keys the published ones.
        let authorizer = try prod.function(named: "Authorizer")
        #expect(authorizer.environment["JWT_ISSUER"] == nil && authorizer.environment["JWKS_URL"] == nil)
        #expect(authorizer.environment["PUBLIC_KEYS_PARAMETER"] == "/gatehouse/auth/public-keys")
        let custom = try Template.load(
            path: path,
            parameters: Self.prod.merging(stack) { $1 }.merging(["ApiBaseUrl": "https://auth.example.com"]) { $1 })
        #expect(try custom.function(named: "Exchange").environment["ISSUER"] == "https://auth.example.com")
        let local = try Template.load(
            path: path,
            parameters: ["EmailDelivery": "outbox", "SmsDelivery": "outbox", "ApiBaseUrl": "http://127.0.0.1:4000"])
        #expect(try local.function(named: "Exchange").environment["ISSUER"] == "http://127.0.0.1:4000")
    }

    /// The OTP secret is a secret the stack generates, read by the functions that need it (and
    /// only them) at their cold start, never a parameter that lands in their environment; the
    /// OIDC client secret's ARN reaches only `OAuthCallback`; `Jwks` reads the public keys'
    /// parameter, the stack's own (`/gatehouse/STACK/public-keys`, so that publishing for a dev
    /// stack never replaces prod's keys), and nothing of the private set.
    @Test(arguments: Flavour.allCases)
    func secretsAreSecretsAndJwksReadsOnlyPublicKeys(_ flavour: Flavour) throws {
        let root = try flavour.root()
        #expect(root["Parameters"]?["OtpSecret"] == nil)
        let secret = try #require(root["Resources"]?["OtpSecret"])
        #expect(secret["Type"] == "AWS::SecretsManager::Secret")
        let generated = secret["Properties"]?["GenerateSecretString"]
        // Letters and digits only: the functions read it as base64url, 64 characters are 48 bytes.
        #expect(generated?["PasswordLength"] == 64 && generated?["ExcludePunctuation"] == true)
        let resources = try #require(root["Resources"]?.objectValue)
        var readers = 0
        for (name, resource) in resources where resource["Type"] == "AWS::Serverless::Function" {
            let variables = resource["Properties"]?["Environment"]?["Variables"]
            #expect(variables?["OTP_SECRET"] == nil, "\(name)")
            let policies = resource["Properties"]?["Policies"]?.arrayValue ?? []
            let readsSecret = policies.contains {
                $0["AWSSecretsManagerGetSecretValuePolicy"]?["SecretArn"] == ["Ref": "OtpSecret"]
            }
            let named = variables?["OTP_SECRET_ARN"] == ["Ref": "OtpSecret"]
            #expect(readsSecret == named, "\(name): a policy on the OTP secret exactly when it reads it")
            if named { readers += 1 }
        }
        // The OTP routes, the Supabase routes that mail or check codes (sign-up, recovery,
        // /otp, /verify, /user), DeleteAccount (the reauthentication nonce is kept under it),
        // EmailCallback (the hosted page's second step opens the TOTP factors' secrets), and
        // SupabaseAdmin (the codes of the links it generates).
        #expect(readers == 10)
        let jwks = try #require(resources["Jwks"]?["Properties"])
        #expect(root["Parameters"]?["PublicKeysParameter"] == nil, "the parameter is the stack's, not chosen")
        #expect(
            jwks["Environment"]?["Variables"] == [
                "PUBLIC_KEYS_PARAMETER": ["Fn::Sub": "/gatehouse/${AWS::StackName}/public-keys"]
            ])
        // `ssm:GetParameter` on that one parameter, no more (SAM's `SSMParameterReadPolicy` would
        // add `ssm:DescribeParameters` on every parameter, and reads by path).
        #expect(
            jwks["Policies"] == [
                [
                    "Statement": [
                        [
                            "Effect": "Allow", "Action": "ssm:GetParameter",
                            "Resource": [
                                "Fn::Sub":
                                    "arn:${AWS::Partition}:ssm:${AWS::Region}:${AWS::AccountId}:parameter/gatehouse/${AWS::StackName}/public-keys"
                            ],
                        ]
                    ]
                ]
            ])
        let output = try #require(root["Outputs"]?["PublicKeysParameter"]?["Value"])
        for stack in ["auth", "auth-dev"] {
            let prod = try Template.load(
                path: try flavour.path(), parameters: Self.prod.merging(["AWS::StackName": stack]) { $1 })
            let environment = try prod.function(named: "Jwks").environment
            #expect(environment["PUBLIC_KEYS_PARAMETER"] == "/gatehouse/\(stack)/public-keys")
            #expect(environment.keys.filter { $0.hasPrefix("SIGNING_KEYS") }.isEmpty, "\(stack): no private set")
            let deployed = CloudFormationValues(
                root: root, parameters: Self.prod.merging(["AWS::StackName": stack]) { $1 }, apiID: "abc123")
            #expect(try deployed.value(output) == "/gatehouse/\(stack)/public-keys")
        }
        // The client secret's ARN, given, reaches the callback alone; no function has a secret's value.
        let arn = "arn:aws:secretsmanager:eu-west-1:123456789012:secret:gatehouse/oidc-AbCdEf"
        let withSecret = try Template.load(
            path: try flavour.path(), parameters: Self.prod.merging(["OidcClientSecretArn": arn]) { $1 })
        for (name, function) in withSecret.functions {
            #expect(function.environment["OIDC_CLIENT_SECRET"] == nil, "\(name)")
            let named = function.environment.filter { $0.value == arn }.keys.sorted()
            #expect(named == (name == "OAuthCallback" ? ["OIDC_CLIENT_SECRET_ARN"] : []), "\(name)")
        }
    }

    /// No function's role can write an SSM parameter: the public keys' parameter is written by
    /// `gatehouse keys publish` with the operator's credentials. No SAM policy template grants
    /// SSM, and the one SSM action any statement names is `ssm:GetParameter`.
    @Test(arguments: Flavour.allCases)
    func noFunctionCanWriteAParameter(_ flavour: Flavour) throws {
        let root = try flavour.root()
        let resources = try #require(root["Resources"]?.objectValue)
        #expect(!resources.values.contains { $0["Type"]?.stringValue?.hasPrefix("AWS::IAM::") == true })
        for (name, resource) in resources where resource["Type"] == "AWS::Serverless::Function" {
            let policies = resource["Properties"]?["Policies"]?.arrayValue ?? []
            for policy in policies {
                for key in policy.objectValue?.keys.sorted() ?? [] {
                    #expect(!key.uppercased().hasPrefix("SSM"), "\(name): \(key)")
                }
                let actions = policy.serialized.matches(of: #/"(ssm:[A-Za-z*]+)"/#).map { String($0.1) }
                #expect(actions.allSatisfy { $0 == "ssm:GetParameter" }, "\(name) names SSM actions \(actions)")
            }
        }
        #expect(!root.serialized.contains("ssm:Put"))
    }

    /// What an operator expects of a deployed stack: JSON logs at a chosen level (Lambda's own
    /// filtering), default route throttling, the request metric's namespace on every function
    /// and an alarm on its failure rate, and outputs for the API, its issuer, its JWKS and every
    /// table.
    @Test(arguments: Flavour.allCases)
    func operationsDefaultsAreInTheTemplate(_ flavour: Flavour) throws {
        let root = try flavour.root()
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
        #expect(outputs["ApiUrl"] != nil && outputs["IssuerUrl"] != nil && outputs["JwksUrl"] != nil)
        for (name, resource) in resources where resource["Type"] == "AWS::DynamoDB::Table" {
            #expect(outputs["\(name)Table"]?["Value"] == ["Ref": .string(name)], "\(name)")
        }
        // With Stage=prod and no custom domain, the issuer output is the API's own URL.
        let stack = ["AWS::StackName": "auth", "AWS::Region": "eu-west-1", "AWS::URLSuffix": "amazonaws.com"]
        let deployed = CloudFormationValues(root: root, parameters: Self.prod.merging(stack) { $1 }, apiID: "abc123")
        #expect(
            try deployed.value(outputs["IssuerUrl"]?["Value"]) == "https://abc123.execute-api.eu-west-1.amazonaws.com")
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
        #expect(sending == ["EMAIL_DELIVERY": 9, "SMS_DELIVERY": 7])
    }
}
