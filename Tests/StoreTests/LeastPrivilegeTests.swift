import Foundation
import GatehouseJSON
import Store
import Testing

/// Each function's role allows what its code uses and nothing more (issue 46). What a function
/// does to each table is its `STORE_ACCESS` (`TableGrants`): its store refuses anything else
/// (`GrantedStore`), so the end-to-end tests, which run the real binaries through start-api with
/// the template's environment, fail on a grant too small. Here the role's DynamoDB actions must
/// be exactly those of `STORE_ACCESS`, table by table, so a grant beyond it fails; and what the
/// sources show is checked against it: no function writes `Apps`, only a function that checks a
/// password reads `Passwords`, only a function that loads the signing keys reads their secret,
/// only the function that redeems the OIDC provider's codes reads the client secret's, and text
/// messages go to phone numbers, never to a topic.
struct LeastPrivilegeTests {
    typealias Flavour = DeployedTemplateTests.Flavour

    /// The actions of SAM's DynamoDB policy templates (samtranslator's `policy_templates.json`).
    static let samPolicies: [String: Set<String>] = [
        "DynamoDBReadPolicy": [
            "dynamodb:GetItem", "dynamodb:Scan", "dynamodb:Query", "dynamodb:BatchGetItem", "dynamodb:DescribeTable",
        ],
        "DynamoDBWritePolicy": ["dynamodb:PutItem", "dynamodb:UpdateItem", "dynamodb:BatchWriteItem"],
        "DynamoDBCrudPolicy": [
            "dynamodb:GetItem", "dynamodb:DeleteItem", "dynamodb:PutItem", "dynamodb:Scan", "dynamodb:Query",
            "dynamodb:UpdateItem", "dynamodb:BatchWriteItem", "dynamodb:BatchGetItem", "dynamodb:DescribeTable",
            "dynamodb:ConditionCheckItem",
        ],
    ]

    /// The DynamoDB actions `policies` allow, by table (a statement's resource that is not a
    /// table's ARN counts under its JSON text, which no grant matches).
    static func allowedActions(_ policies: [JSONValue]) -> [String: Set<String>] {
        var allowed: [String: Set<String>] = [:]
        for policy in policies {
            for (name, actions) in samPolicies {
                guard let table = policy[name]?["TableName"]?["Ref"]?.stringValue else { continue }
                allowed[table, default: []].formUnion(actions)
            }
            for statement in policy["Statement"]?.arrayValue ?? [] where statement["Effect"] == "Allow" {
                let actions = (statement["Action"]?.arrayValue ?? [statement["Action"] ?? .null]).compactMap(
                    \.stringValue
                )
                .filter { $0.hasPrefix("dynamodb:") }
                guard !actions.isEmpty else { continue }
                let resource = statement["Resource"] ?? .null
                let table = resource["Fn::GetAtt"]?.arrayValue?.first?.stringValue ?? resource.serialized
                allowed[table, default: []].formUnion(actions)
            }
        }
        return allowed
    }

    /// The IAM actions `grants` stand for, by table.
    static func actions(of grants: TableGrants) -> [String: Set<String>] {
        grants.actions.mapValues { Set($0.flatMap(\.iamActions)) }
    }

    /// Every function of the template: its name, environment variables (unresolved) and policies.
    static func functions(
        _ root: JSONValue
    ) throws -> [(name: String, variables: [String: JSONValue], policies: [JSONValue])] {
        let resources = try #require(root["Resources"]?.objectValue)
        return resources.filter { $0.value["Type"] == "AWS::Serverless::Function" }.sorted { $0.key < $1.key }.map {
            (
                $0.key, $0.value["Properties"]?["Environment"]?["Variables"]?.objectValue ?? [:],
                $0.value["Properties"]?["Policies"]?.arrayValue ?? []
            )
        }
    }

    @Test(arguments: Flavour.allCases)
    func eachRoleAllowsExactlyTheFunctionsStoreAccess(_ flavour: Flavour) throws {
        for function in try Self.functions(flavour.root()) {
            let allowed = Self.allowedActions(function.policies)
            guard try DeployedTemplateTests.importsTheStore(function.name) else {
                #expect(allowed.isEmpty, "\(function.name) opens no store")
                #expect(function.variables[TableGrants.environmentVariable] == nil, "\(function.name)")
                continue
            }
            let text = try #require(
                function.variables[TableGrants.environmentVariable]?.stringValue, "\(function.name) has STORE_ACCESS")
            let grants = try TableGrants(environmentText: text)
            let named = Set(function.variables.keys.filter { $0.hasPrefix("TABLE_") }.map { String($0.dropFirst(6)) })
            #expect(Set(grants.actions.keys) == named, "\(function.name): STORE_ACCESS names its TABLE_ tables")
            let expected = Self.actions(of: grants)
            for table in Set(allowed.keys).union(expected.keys).sorted() {
                let beyond = allowed[table, default: []].subtracting(expected[table, default: []])
                let missing = expected[table, default: []].subtracting(allowed[table, default: []])
                #expect(beyond.isEmpty, "\(function.name) may \(beyond.sorted()) on \(table) beyond its STORE_ACCESS")
                #expect(missing.isEmpty, "\(function.name) may not \(missing.sorted()) on \(table), which it uses")
            }
        }
    }

    /// No function reads a whole table: no role allows `Scan`, `BatchGetItem` or `DescribeTable`
    /// (SAM's `DynamoDBReadPolicy` allows all three), and no file under `Functions/` but
    /// `AppRegistry.list`'s, which only the CLI calls, scans. A bug in a function that holds
    /// `Passwords` or `Users` can then read an item it names, never dump the table. The one
    /// exception is Supabase's admin API (`SupabaseAdmin`, behind a server key), which lists
    /// `Users` (`UserAdmin.list`): it may scan that table alone, never `Passwords`.
    @Test(arguments: Flavour.allCases)
    func noFunctionMayReadAWholeTable(_ flavour: Flavour) throws {
        for function in try Self.functions(flavour.root()) {
            let allowed = Self.allowedActions(function.policies).values.reduce(into: Set<String>()) { $0.formUnion($1) }
            let lister = function.name == "SupabaseAdmin"
            let wide = allowed.intersection(["dynamodb:Scan", "dynamodb:BatchGetItem", "dynamodb:DescribeTable"])
            #expect(wide == (lister ? ["dynamodb:Scan"] : []), "\(function.name) may \(wide.sorted())")
            let text = function.variables[TableGrants.environmentVariable]?.stringValue ?? ""
            let scanned = try TableGrants(environmentText: text).actions.filter { $0.value.contains(.scan) }
            #expect(
                scanned.keys.sorted() == (lister ? ["Users"] : []), "\(function.name) scans \(scanned.keys.sorted())")
        }
        for path in try Self.swiftFiles(under: "Functions") {
            let text = Self.flattened(try Self.source(path))
            let scans = text.ranges(of: "store.scan(").count
            let list = text.ranges(of: ".list()").count
            let scanner = path.hasSuffix("Apps/AppRegistry.swift") || path.hasSuffix("Admin/UserAdmin.swift")
            #expect(scans == (scanner ? 1 : 0), "\(path) scans a table")
            #expect(list == 0, "\(path) lists every app, which only the CLI may")
        }
    }

    /// `Apps` is written only by the CLI (`gatehouse apps`, `gatehouse apps key`, start-api's demo
    /// app): no function calls a method of `AppRegistry` or `ServerKeys` that writes it, and no
    /// function's grant writes it (a `check`, a transaction's condition on an app, writes nothing).
    @Test func appsIsReadOnlyToEveryFunction() throws {
        let registry = try Self.source("Functions/AuthKit/Apps/AppRegistry.swift")
        let keys = try Self.source("Functions/AuthKit/Apps/ServerKeys.swift")
        let keyWriters = try Self.writingMethods(in: keys, table: "AppRegistry.table")
        #expect(Set(keyWriters.map(\.name)) == ["create", "revoke", "removeAll", "changeList"])
        let writers = try Self.writingMethods(in: registry, table: "Self.table") + keyWriters
        #expect(
            Set(writers.map(\.name)) == [
                "add", "update", "remove", "writeWithAssociation", "ensureDemoApp", "pointDemoApp", "create", "revoke",
                "removeAll", "changeList",
            ])
        for path in try Self.swiftFiles(under: "Functions")
        where !path.hasSuffix("Apps/AppRegistry.swift") && !path.hasSuffix("Apps/ServerKeys.swift") {
            let text = Self.flattened(try Self.source(path))
            for writer in writers {
                #expect(
                    text.firstRange(of: writer.call) == nil,
                    "\(path) calls AppRegistry.\(writer.name), which writes Apps")
            }
            #expect(text.firstMatch(of: try Self.writeCall("AppRegistry.table")) == nil, "\(path) writes Apps itself")
        }
        for function in try Self.functions(Flavour.source.root()) {
            let text = function.variables[TableGrants.environmentVariable]?.stringValue ?? ""
            let apps = try TableGrants(environmentText: text).actions["Apps"] ?? []
            #expect(apps.isSubset(of: [.read, .check]), "\(function.name) may \(apps.sorted()) on Apps")
        }
    }

    /// `Passwords` is read only by a function whose sources make a service that checks a
    /// password (one whose AuthKit file reads a hash, `PasswordCredentials.hash`, or makes such
    /// a service); the others drop passwords (`delete`) or set one (`put`) without reading.
    @Test func onlyFunctionsThatCheckPasswordsReadThem() throws {
        let checkers = try Self.typesReaching("PasswordCredentials.hash(", call: { "\($0)(" })
        #expect(checkers.contains("PasswordAccounts"))
        var readers: [String] = []
        for function in try Self.functions(Flavour.source.root()) {
            let text = function.variables[TableGrants.environmentVariable]?.stringValue ?? ""
            guard try TableGrants(environmentText: text).allows(.read, on: "Passwords") else { continue }
            readers.append(function.name)
            let sources = Self.flattened(try DeployedTemplateTests.sources(of: function.name))
            #expect(checkers.contains { sources.contains("\($0)(") }, "\(function.name) reads Passwords, checks none")
        }
        #expect(readers.sorted() == ["SupabaseToken", "SupabaseUser", "SupabaseVerify"])
    }

    /// The signing keys' secret is read only by a function whose sources load the keys (make a
    /// service whose AuthKit file loads them, `SigningKeyStore`, or makes one that does), and
    /// every such function is given it.
    @Test(arguments: Flavour.allCases)
    func onlyFunctionsThatSignReadTheSigningKeys(_ flavour: Flavour) throws {
        let loaders = try Self.typesReaching("SigningKeyStore(", call: { "\($0)(environment:" })
        #expect(loaders.contains("SessionService"))
        for function in try Self.functions(flavour.root()) {
            let sources = Self.flattened(try DeployedTemplateTests.sources(of: function.name))
            let loads = loaders.contains { sources.contains("\($0)(environment:") }
            let named = function.variables["SIGNING_KEYS_SECRET"] == ["Ref": "SigningKeysSecret"]
            let policy: JSONValue = [
                "AWSSecretsManagerGetSecretValuePolicy": ["SecretArn": ["Ref": "SigningKeysSecret"]]
            ]
            // SupabaseSignup signs only for anonymous users: it may read the keys only while those are on.
            let readable = function.policies.contains {
                $0 == policy
                    || (function.name == "SupabaseSignup"
                        && $0 == ["Fn::If": ["AnonymousUsersOn", policy, ["Ref": "AWS::NoValue"]]])
            }
            #expect(loads == named, "\(function.name): SIGNING_KEYS_SECRET exactly when it loads the keys")
            #expect(named == readable, "\(function.name): a policy on the keys' secret exactly when it is named")
        }
    }

    /// The access-token hook (`AccessTokenHook`, a function's name) is named to exactly the
    /// functions that sign tokens, and each may invoke that one function, only while a hook is set
    /// (`HasAccessTokenHook`; for SupabaseSignup, which signs only for anonymous users, while those
    /// are on too). No other function may invoke any function.
    @Test(arguments: Flavour.allCases)
    func onlyFunctionsThatSignMayInvokeTheAccessTokenHook(_ flavour: Flavour) throws {
        let root = try flavour.root()
        #expect(root["Parameters"]?["AccessTokenHook"]?["Default"] == "")
        #expect(
            root["Conditions"]?["HasAccessTokenHook"] == [
                "Fn::Not": [["Fn::Equals": [["Ref": "AccessTokenHook"], ""]]]
            ])
        #expect(
            root["Conditions"]?["AnonymousAccessTokenHook"]
                == ["Fn::And": [["Condition": "AnonymousUsersOn"], ["Condition": "HasAccessTokenHook"]]])
        let invoke: JSONValue = [
            "Statement": [
                [
                    "Effect": "Allow", "Action": "lambda:InvokeFunction",
                    "Resource": [
                        "Fn::Sub":
                            "arn:${AWS::Partition}:lambda:${AWS::Region}:${AWS::AccountId}:function:${AccessTokenHook}"
                    ],
                ]
            ]
        ]
        var hooked: [String] = []
        for function in try Self.functions(root) {
            let signs = function.variables["SIGNING_KEYS_SECRET"] == ["Ref": "SigningKeysSecret"]
            let named = function.variables["ACCESS_TOKEN_HOOK"] == ["Ref": "AccessTokenHook"]
            #expect(signs == named, "\(function.name): ACCESS_TOKEN_HOOK exactly when it signs")
            let invoking = function.policies.filter { $0.serialized.contains("lambda:") }
            let condition = function.name == "SupabaseSignup" ? "AnonymousAccessTokenHook" : "HasAccessTokenHook"
            let expected: [JSONValue] =
                named ? [["Fn::If": [.string(condition), invoke, ["Ref": "AWS::NoValue"]]]] : []
            #expect(invoking == expected, "\(function.name)")
            if named { hooked.append(function.name) }
        }
        #expect(hooked.count == 9)
    }

    /// The OIDC client secret is in Secrets Manager, never a parameter's value in a function's
    /// environment: only a function whose sources redeem the provider's codes (implement its
    /// token endpoint, `OAuthTokenEndpoint`, which AuthKit calls with the secret) is named the
    /// secret's ARN (`OIDC_CLIENT_SECRET_ARN`), and exactly such a function may read that one
    /// secret, when there is one (`HasOidcClientSecret`). `Authorize` only redirects.
    @Test(arguments: Flavour.allCases)
    func onlyTheFunctionThatRedeemsCodesReadsTheOIDCClientSecret(_ flavour: Flavour) throws {
        let root = try flavour.root()
        let parameters = try #require(root["Parameters"]?.objectValue)
        #expect(parameters["OidcClientSecret"] == nil, "the secret itself is no parameter")
        #expect(parameters["OidcClientSecretArn"]?["Default"] == "")
        #expect(root["Globals"]?.serialized.contains("OidcClientSecret") == false)
        var readers: [String] = []
        for function in try Self.functions(root) {
            let redeems = try DeployedTemplateTests.sources(of: function.name).contains("OAuthTokenEndpoint")
            #expect(function.variables["OIDC_CLIENT_SECRET"] == nil, "\(function.name): the secret in its environment")
            let naming = function.variables.filter { $0.value.serialized.contains("OidcClientSecret") }
            let named = function.variables["OIDC_CLIENT_SECRET_ARN"] == ["Ref": "OidcClientSecretArn"]
            #expect(naming.count == (named ? 1 : 0), "\(function.name): \(naming.keys.sorted())")
            let reading = function.policies.filter { $0.serialized.contains("OidcClientSecret") }
            #expect(redeems == named, "\(function.name): OIDC_CLIENT_SECRET_ARN exactly when it redeems codes")
            #expect(reading.count == (named ? 1 : 0), "\(function.name): a policy on the secret exactly when named")
            if let policy = reading.first {
                #expect(
                    policy
                        == [
                            "Fn::If": [
                                "HasOidcClientSecret",
                                [
                                    "AWSSecretsManagerGetSecretValuePolicy": [
                                        "SecretArn": ["Ref": "OidcClientSecretArn"]
                                    ]
                                ],
                                ["Ref": "AWS::NoValue"],
                            ]
                        ], "\(function.name)")
            }
            if named { readers.append(function.name) }
        }
        #expect(readers == ["OAuthCallback"])
        #expect(
            root["Conditions"]?["HasOidcClientSecret"]
                == ["Fn::Not": [["Fn::Equals": [["Ref": "OidcClientSecretArn"], ""]]]])
    }

    /// `sns:Publish` reaches phone numbers only: a direct publish to a number has no resource
    /// ARN, so it is allowed on `*`, and every topic (`arn:…:sns:*:*:*`) is denied.
    @Test(arguments: Flavour.allCases)
    func textsGoToPhoneNumbersNeverToATopic(_ flavour: Flavour) throws {
        var publishers: [String] = []
        for function in try Self.functions(flavour.root()) {
            let statements = function.policies.flatMap { $0["Statement"]?.arrayValue ?? [] }
            let publishes = statements.filter {
                $0["Action"] == "sns:Publish" || ($0["Action"]?.arrayValue?.contains("sns:Publish") ?? false)
            }
            guard !publishes.isEmpty else { continue }
            publishers.append(function.name)
            #expect(
                publishes.contains {
                    $0["Effect"] == "Deny" && $0["Resource"] == ["Fn::Sub": "arn:${AWS::Partition}:sns:*:*:*"]
                }, "\(function.name) may publish to a topic")
            #expect(publishes.filter { $0["Effect"] == "Allow" }.count == 1, "\(function.name)")
        }
        #expect(
            publishers.sorted() == ["OtpRequest", "SupabaseOtp", "SupabaseRecover", "SupabaseSignup", "SupabaseUser"])
    }

    // MARK: Reading the sources

    /// A method that writes a table, and how a caller elsewhere would call it.
    struct Writer {
        let name: String
        let call: Regex<AnyRegexOutput>
    }

    /// The methods of `text` whose bodies write `table` (a put, update or delete of the store,
    /// or a transaction's write, naming it), each with the call that reaches it from outside:
    /// `.name(label:`, `.name()`, or with an unlabelled argument `.name(` and not an
    /// `UpdateAction`'s `.add("…`.
    static func writingMethods(in text: String, table: String) throws -> [Writer] {
        let write = try writeCall(table)
        var writers: [Writer] = []
        for method in flattened(text).split(separator: "func ").dropFirst() {
            guard let header = method.firstMatch(of: #/^(\w+)\((\w*)/#), method.firstMatch(of: write) != nil else {
                continue
            }
            let (name, label) = (String(header.1), String(header.2))
            let call =
                switch label {
                case "": #"\."# + name + #"\(\)"#
                case "_": #"\."# + name + #"\((?![".])"#
                default: #"\."# + name + #"\("# + label + ":"
                }
            writers.append(Writer(name: name, call: try Regex(call)))
        }
        return writers
    }

    /// A write naming `table`: the store's put, update or delete, or a transaction's.
    static func writeCall(_ table: String) throws -> Regex<AnyRegexOutput> {
        let escaped = NSRegularExpression.escapedPattern(for: table)
        return try Regex(#"store\.(put|update|delete)\("# + escaped + #"|\.(put|update|delete)\(table: ?"# + escaped)
    }

    /// `text` with no line break or indentation after an opening parenthesis, so that a call
    /// reads on one line however it is wrapped.
    static func flattened(_ text: String) -> String {
        text.replacing(#/\(\s+/#, with: "(")
    }

    /// The AuthKit types (a file's name before any `+`) whose files contain `marker`, and those
    /// whose files make one of them (`call(type)`), to a fixed point.
    static func typesReaching(_ marker: String, call: (String) -> String) throws -> Set<String> {
        let files = try swiftFiles(under: "Functions/AuthKit").map { path in
            let name = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
            return (type: String(name.split(separator: "+")[0]), text: flattened(try source(path)))
        }
        var types = Set(files.filter { $0.text.contains(marker) }.map(\.type))
        while true {
            let more = Set(files.filter { file in types.contains { file.text.contains(call($0)) } }.map(\.type))
            guard !more.isSubset(of: types) else { return types }
            types.formUnion(more)
        }
    }

    static func swiftFiles(under folder: String) throws -> [String] {
        let root = StoreTemplateTests.repositoryRoot
        let enumerator = FileManager.default.enumerator(atPath: root.appendingPathComponent(folder).path)
        return (enumerator?.allObjects as? [String] ?? []).filter { $0.hasSuffix(".swift") }.map { "\(folder)/\($0)" }
            .sorted()
    }

    static func source(_ path: String) throws -> String {
        try String(contentsOf: StoreTemplateTests.repositoryRoot.appendingPathComponent(path), encoding: .utf8)
    }
}
