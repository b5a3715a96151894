import Emulator
import Foundation
import GatehouseJSON
import Testing

/// The native apps that may use this domain's passkeys, end to end: registered with `gatehouse
/// apps add` and `update`, and served by start-api at `/.well-known/apple-app-site-association`
/// and `/.well-known/assetlinks.json` (the SupabaseSettings function, reading one item of `Apps`).
struct AppSiteAssociationEndToEndTests {
    let cli = GatehouseCLI()
    static let fingerprint = (0..<32).map { String(format: "%02X", $0 * 7 % 256) }.joined(separator: ":")
    static let rotated = String(repeating: "AB:", count: 31) + "CD"

    /// The header `name` of an answer.
    func header(_ answer: (status: Int, headers: [(String, String)], body: [UInt8]), _ name: String) -> String? {
        answer.headers.first { $0.0.lowercased() == name }?.1
    }

    @Test func theWellKnownFilesListTheRegisteredNativeApps() async throws {
        let add = try await cli.run([
            "apps", "add", "--id", "shop", "--name", "Shop", "--mobile-scheme", "com.example.shop",
            "--apple-app-id", "ABCDE12345.com.example.shop", "--apple-app-id", "ABCDE12345.com.example.shop.clip",
            "--android-app", "com.example.shop=\(Self.fingerprint.lowercased())",
        ])
        #expect(add.status == 0, "stderr: \(add.stderr)")
        let added = try add.json()
        #expect(added["appleAppIds"] == ["ABCDE12345.com.example.shop", "ABCDE12345.com.example.shop.clip"])
        #expect(added["androidApps"]?.arrayValue?.first?["sha256CertFingerprints"] == [.string(Self.fingerprint)])
        // A key rotation: the app now lists both certificates.
        let update = try await cli.run([
            "apps", "update", "shop", "--android-app", "com.example.shop=\(Self.fingerprint),\(Self.rotated)",
        ])
        #expect(update.status == 0, "stderr: \(update.stderr)")
        #expect(try update.json()["appleAppIds"] == added["appleAppIds"], "the other list stays")
        let listed = try await cli.run(["apps", "list"])
        #expect(listed.stdoutText.contains(#""appleAppIds":["ABCDE12345.com.example.shop""#))

        try await LocalAPI.with(cli: cli) { api in
            let apple = try await api.request("GET", "/.well-known/apple-app-site-association")
            #expect(apple.status == 200)
            #expect(header(apple, "content-type") == "application/json")
            #expect(header(apple, "cache-control") == "public, max-age=3600")
            #expect(
                try JSONValue(parsing: apple.body) == [
                    "webcredentials": ["apps": ["ABCDE12345.com.example.shop", "ABCDE12345.com.example.shop.clip"]]
                ])
            let android = try await api.request("GET", "/.well-known/assetlinks.json")
            #expect(android.status == 200)
            #expect(header(android, "content-type") == "application/json")
            #expect(
                try JSONValue(parsing: android.body) == [
                    [
                        "relation": ["delegate_permission/common.get_login_creds"],
                        "target": [
                            "namespace": "android_app", "package_name": "com.example.shop",
                            "sha256_cert_fingerprints": .array(
                                [Self.fingerprint, Self.rotated].sorted().map { .string($0) }),
                        ],
                    ]
                ])
        }
    }

    /// A store where no app lists a native app still answers both files, with empty lists.
    @Test func withoutNativeAppsTheFilesAreEmptyLists() async throws {
        try await LocalAPI.with(cli: cli) { api in
            let apple = try await api.request("GET", "/.well-known/apple-app-site-association")
            #expect(apple.status == 200)
            #expect(try JSONValue(parsing: apple.body) == ["webcredentials": ["apps": []]])
            let android = try await api.request("GET", "/.well-known/assetlinks.json")
            #expect(android.status == 200)
            #expect(try JSONValue(parsing: android.body) == [])
        }
    }

    /// A bad value is refused by name, and nothing is stored.
    @Test func aBadNativeAppIsRefusedAndNothingStored() async throws {
        let badApple = try await cli.run([
            "apps", "add", "--id", "shop", "--name", "Shop", "--apple-app-id", "abcde12345.com.example.shop",
        ])
        #expect(badApple.status == 2)
        #expect(badApple.stderr.contains("apple-app-id: \"abcde12345.com.example.shop\" is not TEAMID.bundle.id"))
        let badAndroid = try await cli.run([
            "apps", "add", "--id", "shop", "--name", "Shop", "--android-app", "com.example.shop=AA:BB",
        ])
        #expect(badAndroid.status == 2)
        #expect(badAndroid.stderr.contains("android-app: \"AA:BB\" is not a SHA-256 certificate fingerprint"))
        let listed = try await cli.run(["apps", "list"])
        #expect(!listed.stdoutText.contains(#""id":"shop""#), "nothing stored: \(listed.stdoutText)")
        let update = try await cli.run(["apps", "update", "demo", "--apple-app-id", "ABCDE12345.app"])
        #expect(update.status == 2)
        #expect(update.stderr.contains("apple-app-id:"))
        let nothing = try await cli.run(["apps", "update", "demo"])
        #expect(nothing.status != 0)
        #expect(nothing.stderr.contains("name what changes"))
        let missing = try await cli.run(["apps", "update", "nope", "--apple-app-id", "ABCDE12345.com.example.app"])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("no app with id nope"))
        #expect(try await cli.run(["apps", "list"]).stdoutText == listed.stdoutText)
    }
}

extension StartAPIDynamoDBTests {
    /// On DynamoDB, the CLI's transaction writes the app and the gathered lists, and the function,
    /// whose role may only get an item of `Apps` (never scan it), serves them.
    @Test func theWellKnownFilesAreServedFromDynamoDB() async throws {
        let (api, store) = try await startOnDynamoDB()
        defer { api.process.kill(SIGINT) }
        let id = "aasa-\(UUID().uuidString.prefix(8).lowercased())"
        let bundle = "ABCDE12345.com.example.\(id.replacingOccurrences(of: "-", with: ""))"
        let added = try await cli.run(["apps", "add", "--id", id, "--name", "AASA", "--apple-app-id", bundle] + store)
        #expect(added.status == 0, "\(added.stderr)")
        let apple = try await api.request("GET", "/.well-known/apple-app-site-association")
        #expect(apple.status == 200, "\(api.log.suffix(2000))")
        let apps = try JSONValue(parsing: apple.body)["webcredentials"]?["apps"]?.arrayValue ?? []
        #expect(apps.contains(.string(bundle)))
        #expect(try await cli.run(["apps", "remove", id] + store).status == 0)
        let after = try await api.request("GET", "/.well-known/apple-app-site-association")
        #expect(
            try JSONValue(parsing: after.body)["webcredentials"]?["apps"]?.arrayValue?.contains(.string(bundle))
                == false)
        _ = await api.stop()
    }
}
