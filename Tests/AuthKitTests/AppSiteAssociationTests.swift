import AuthKit
import Foundation
import GatehouseJSON
import Store
import Testing

/// The native apps an app lists for passkeys (`AppleAppID`, `AndroidApp`), and the
/// `/.well-known/` files built from every app's (`AppSiteAssociation`), kept by `AppRegistry`.
struct AppSiteAssociationTests {
    static let fingerprint = (0..<32).map { String(format: "%02X", $0 * 7 % 256) }.joined(separator: ":")
    static let other = String(repeating: "AB:", count: 31) + "CD"

    @Test(arguments: ["ABCDE12345.com.example.app", "0123456789.io.example.My-App", "ZZZZZZZZZZ.a.b.c.d"])
    func anAppleAppIDIsATeamAndABundleID(_ id: String) throws {
        try AppleAppID.validate(id)
    }

    @Test(
        arguments: [
            "", "ABCDE12345", "ABCDE12345.", "abcde12345.com.example.app", "ABCDE1234.com.example.app",
            "ABCDE123456.com.example.app", "ABCDE12345com.example.app", "ABCDE12345.app", "ABCDE12345.com..app",
            "ABCDE12345.com.example.app.", "ABCDE12345.com.example/app", "ABCDE12345.com.exämple.app",
            "ABCDE12345.com.example app", "ABCDE12345." + String(repeating: "a.", count: 78) + "b",
        ])
    func aBadAppleAppIDIsRefusedByName(_ id: String) {
        #expect {
            try AppleAppID.validate(id)
        } throws: { error in
            guard case AppError.invalid("apple-app-id", _) = error else { return false }
            return true
        }
    }

    @Test func anAppListsAtMostTwentyIOSAppsAndEachOnce() throws {
        let ids = (0..<20).map { "ABCDE12345.com.example.app\($0)" }
        #expect(try AppleAppID.checked(ids + ids) == ids)
        #expect(throws: AppError.invalid("apple-app-id", "an app lists at most 20")) {
            try AppleAppID.checked(ids + ["ABCDE12345.com.example.more"])
        }
    }

    @Test func anAndroidAppIsAPackageAndItsCertificatesFingerprints() throws {
        let app = try AndroidApp(option: "com.example.app=\(Self.fingerprint.lowercased()),\(Self.other)")
        #expect(app.packageName == "com.example.app")
        #expect(app.fingerprints == [Self.fingerprint, Self.other], "kept in upper case")
        #expect(AndroidApp(value: app.value) == app)
        let twice = try AndroidApp.checked([
            app, try AndroidApp(packageName: "com.example.app", fingerprints: [Self.other]),
        ])
        #expect(twice == [app], "a package named twice is one, its fingerprints merged")
    }

    @Test(
        arguments: [
            "com.example.app", "=\(fingerprint)", "app=\(fingerprint)", "1com.example=\(fingerprint)",
            "com.-example=\(fingerprint)", "com..example=\(fingerprint)", "com.example=",
            "com.example=AA:BB", "com.example=\(fingerprint):00",
            "com.example=\(fingerprint.replacingOccurrences(of: ":", with: ""))",
            "com.example=\(String(repeating: "GG:", count: 31))GG", "com.example=\(fingerprint),nope",
        ])
    func aBadAndroidAppIsRefusedByName(_ option: String) {
        #expect {
            try AndroidApp(option: option)
        } throws: { error in
            guard case AppError.invalid("android-app", _) = error else { return false }
            return true
        }
    }

    @Test func anAndroidPackageListsAtMostTenFingerprintsAndAnAppTwentyPackages() throws {
        let prints = (0..<11).map { String(repeating: "AB:", count: 31) + String(format: "%02X", $0) }
        let crowded = try AndroidApp(packageName: "com.example.app", fingerprints: prints)
        #expect(throws: AppError.invalid("android-app", "com.example.app lists at most 10 fingerprints")) {
            try AndroidApp.checked([crowded])
        }
        let packages = try (0..<21).map {
            try AndroidApp(packageName: "com.example.app\($0)", fingerprints: [Self.other])
        }
        #expect(throws: AppError.invalid("android-app", "an app lists at most 20 packages")) {
            try App(id: "shop", name: "Shop", baseURL: nil, mobileScheme: nil, publicKeys: [], androidApps: packages)
        }
    }

    /// Both files, for every app's lists: sorted, without repeats, a package two apps list once
    /// with both apps' fingerprints.
    @Test func theFilesListEveryAppsNativeApps() throws {
        let shop = try App(
            id: "shop", name: "Shop", baseURL: nil, mobileScheme: nil, publicKeys: [],
            appleAppIDs: ["ZZZZZ12345.com.example.shop", "ABCDE12345.com.example.shop"],
            androidApps: [try AndroidApp(packageName: "com.example.shop", fingerprints: [Self.other])])
        let blog = try App(
            id: "blog", name: "Blog", baseURL: nil, mobileScheme: nil, publicKeys: [],
            appleAppIDs: ["ABCDE12345.com.example.shop"],
            androidApps: [
                try AndroidApp(packageName: "com.example.shop", fingerprints: [Self.fingerprint]),
                try AndroidApp(packageName: "com.example.blog", fingerprints: [Self.fingerprint]),
            ])
        let plain = try App(id: "plain", name: "Plain", baseURL: nil, mobileScheme: nil, publicKeys: [])
        let association = try AppSiteAssociation(apps: [shop, blog, plain])
        #expect(
            association.appleAppSiteAssociation
                == ["webcredentials": ["apps": ["ABCDE12345.com.example.shop", "ZZZZZ12345.com.example.shop"]]])
        let statement: (String, [String]) -> JSONValue = { package, prints in
            [
                "relation": ["delegate_permission/common.get_login_creds"],
                "target": [
                    "namespace": "android_app", "package_name": .string(package),
                    "sha256_cert_fingerprints": .array(prints.map { .string($0) }),
                ],
            ]
        }
        #expect(
            association.assetLinks == [
                statement("com.example.blog", [Self.fingerprint]),
                statement("com.example.shop", [Self.fingerprint, Self.other].sorted()),
            ])
        #expect(AppSiteAssociation(item: association.item) == association)
    }

    /// With no native app anywhere, both files are still valid: empty lists, not an error.
    @Test func aStoredItemWhoseRevisionIsNoCountIsRefusedNotTrapped() {
        for revision: JSONValue in [.number(1e300), .number(-0.5), .string("1")] {
            let item: Item = [
                "id": .string(AppSiteAssociation.itemID), "revision": revision, "appleAppIds": [], "androidApps": [],
            ]
            #expect(AppSiteAssociation(item: item) == nil)
        }
    }

    @Test func noNativeAppMakesEmptyLists() throws {
        let empty = try AppSiteAssociation(apps: [])
        #expect(empty == .empty)
        #expect(empty.appleAppSiteAssociation.serialized == #"{"webcredentials":{"apps":[]}}"#)
        #expect(empty.assetLinks.serialized == "[]")
    }

    /// Apple's CDN takes at most 128 KB: lists that would make either file larger are refused.
    @Test func theFilesStayUnderAppleSLimit() throws {
        let apps = try (0..<60).map { index in
            try App(
                id: "app\(index)", name: "App", baseURL: nil, mobileScheme: nil, publicKeys: [],
                appleAppIDs: (0..<20).map {
                    "ABCDE12345.com.example.\(index).\(String(repeating: "x", count: 100))\($0)"
                })
        }
        #expect(throws: AppError.invalid("apple-app-id", "the apps' lists would make the file larger than 128 KB")) {
            try AppSiteAssociation(apps: apps)
        }
    }

    /// The lists are stored with the app; an app stored before they existed lists none; a
    /// stored list that is not valid makes the item no app, as an unknown `redeem` does.
    @Test func theListsAreStoredWithTheApp() throws {
        let app = try App(
            id: "shop", name: "Shop", baseURL: nil, mobileScheme: "com.example.shop", publicKeys: [],
            appleAppIDs: ["ABCDE12345.com.example.shop"],
            androidApps: [try AndroidApp(packageName: "com.example.shop", fingerprints: [Self.other])])
        #expect(App(item: app.item) == app)
        #expect(app.item["appleAppIds"] == ["ABCDE12345.com.example.shop"])
        let old: Item = ["id": "old", "name": "Old", "mobileScheme": "com.example.old"]
        let read = try #require(App(item: old))
        #expect(read.appleAppIDs.isEmpty && read.androidApps.isEmpty)
        #expect(App(item: old.merging(["appleAppIds": ["not an id"]]) { $1 }) == nil)
        #expect(App(item: old.merging(["appleAppIds": "ABCDE12345.com.example.old"]) { $1 }) == nil)
        #expect(App(item: old.merging(["androidApps": [["packageName": "com.example.old"]]]) { $1 }) == nil)
    }
}
