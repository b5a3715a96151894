import AuthKit
import Crypto
import GatehouseJSON
import JOSE
import Store
import Testing
import _CryptoExtras

struct AppRegistryTests {
    @Test func appsAreAddedListedAndRemoved() async throws {
        let clock = TestClock(SessionFixtures.start)
        let apps = AppRegistry(store: try SessionFixtures.store(clock: clock))
        try await apps.ensureDemoApp()
        try await apps.ensureDemoApp()
        let demo = try #require(try await apps.app(id: "demo"))
        #expect(demo.webCallbackURL == "http://127.0.0.1:3000/app/auth/callback")
        #expect(demo.mobileCallbackURL == "gatehouse-demo://auth/callback")

        let key = try AppPublicKey.jwk(from: P256.Signing.PrivateKey().publicKey.pemRepresentation)
        let shop = try App(
            id: "shop", name: "Shop", baseURL: "https://shop.example.com", mobileScheme: "com.example.shop",
            publicKeys: [key])
        let added = try await apps.add(shop)
        await #expect(throws: AppError.exists("shop")) { try await apps.add(shop) }
        #expect(try await apps.app(id: "shop") == added)
        // Its publishable key names it, and only its own key finds it.
        let publishable = try #require(added.publishableKey)
        #expect(publishable.hasPrefix("gh_pk_") && publishable.hasSuffix("_shop"))
        #expect(PublishableKey.appID(in: publishable) == "shop")
        #expect(try await apps.app(publishableKey: publishable)?.id == "shop")
        let forged = "gh_pk_" + String(repeating: "A", count: 22) + "_shop"
        #expect(try await apps.app(publishableKey: forged) == nil)
        #expect(try await apps.app(publishableKey: "gh_pk_short_shop") == nil)
        #expect(try await apps.app(publishableKey: "anything") == nil)
        #expect(demo.publishableKey != nil, "the demo app has one too")
        #expect(try await apps.list().map(\.id) == ["demo", "shop"])
        try await apps.remove(id: "shop")
        await #expect(throws: AppError.notFound("shop")) { try await apps.remove(id: "shop") }
        #expect(try await apps.list().map(\.id) == ["demo"])
    }

    @Test(
        arguments: [
            ("", "Name", nil, nil, "id"),
            ("Shop", "Name", nil, nil, "id"),
            ("shop", " ", nil, nil, "name"),
            ("shop", "Shop", "ftp://example.com", nil, "base-url"),
            ("shop", "Shop", "https://example.com/", nil, "base-url"),
            ("shop", "Shop", nil, "1app", "mobile-scheme"),
            ("shop", "Shop", nil, "my app", "mobile-scheme"),
            // A web scheme as the "mobile" one would let `redirect_to` send a session anywhere on
            // the web (`AppRedirect`), and so would the schemes a browser runs or opens itself.
            ("shop", "Shop", nil, "https", "mobile-scheme"),
            ("shop", "Shop", nil, "http", "mobile-scheme"),
            ("shop", "Shop", nil, "wss", "mobile-scheme"),
            ("shop", "Shop", nil, "javascript", "mobile-scheme"),
            ("shop", "Shop", nil, "file", "mobile-scheme"),
            ("shop", "Shop", nil, "data", "mobile-scheme"),
        ] as [(String, String, String?, String?, String)])
    func aBadFieldIsNamed(id: String, name: String, baseURL: String?, scheme: String?, field: String) {
        #expect {
            try App(id: id, name: name, baseURL: baseURL, mobileScheme: scheme, publicKeys: [])
        } throws: { error in
            if case AppError.invalid(let named, _) = error { return named == field }
            return false
        }
    }

    @Test func publicKeysAreReadFromPEMOrJWKWithTheirThumbprintAsKid() throws {
        let rsa = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        let fromRSA = try AppPublicKey.jwk(from: rsa.publicKey.pemRepresentation)
        #expect(fromRSA.kty == "RSA")
        #expect(fromRSA.alg == "RS256")
        #expect(fromRSA.kid == fromRSA.thumbprint())
        #expect(try VerificationKey(jwk: fromRSA).algorithm == .rs256)

        let p256 = P256.Signing.PrivateKey()
        let fromPEM = try AppPublicKey.jwk(from: p256.publicKey.pemRepresentation)
        #expect(fromPEM.crv == "P-256")
        let fromJWK = try AppPublicKey.jwk(
            from: #"{"kty":"EC","crv":"P-256","x":"\#(fromPEM.x!)","y":"\#(fromPEM.y!)"}"#)
        #expect(fromJWK.kid == fromPEM.kid)

        #expect(throws: AppError.self) { try AppPublicKey.jwk(from: p256.pemRepresentation) }
        #expect(throws: AppError.self) { try AppPublicKey.jwk(from: "not a key") }
        #expect(throws: AppError.self) {
            try AppPublicKey.jwk(
                from: #"{"kty":"EC","crv":"P-256","x":"\#(fromPEM.x!)","y":"\#(fromPEM.y!)","d":"AA"}"#)
        }
    }

    @Test func weakOrUnsuitableKeysAreRefused() throws {
        // A 1024-bit RSA key, as PEM (refused when read) and as a JWK (refused by the app).
        let weak = try _RSA.Signing.PrivateKey(unsafeKeySize: .init(bitCount: 1024))
        #expect(throws: AppError.self) { try AppPublicKey.jwk(from: weak.publicKey.pemRepresentation) }
        let primitives = try weak.publicKey.getKeyPrimitives()
        var weakJWK = JWK(kty: "RSA", use: "sig", alg: "RS256")
        weakJWK.n = Base64URL.encode(RSASigningKey.unsigned(primitives.modulus))
        weakJWK.e = Base64URL.encode(RSASigningKey.unsigned(primitives.publicExponent))
        #expect(throws: AppError.self) {
            try App(id: "weak", name: "Weak", baseURL: nil, mobileScheme: nil, publicKeys: [weakJWK])
        }
        let ed25519 = Ed25519SigningKey().publicJWK
        #expect(throws: AppError.self) {
            try App(id: "ed", name: "Ed", baseURL: nil, mobileScheme: nil, publicKeys: [ed25519])
        }
    }

    /// A demo app stored before publishable keys existed is given one by the next command.
    @Test func aDemoAppFromBeforeKeysGetsOne() async throws {
        let store = try SessionFixtures.store(clock: TestClock(SessionFixtures.start))
        try await store.put(
            AppRegistry.table, item: ["id": "demo", "name": "Demo app", "baseUrl": "http://127.0.0.1:3000"],
            condition: nil)
        let apps = AppRegistry(store: store)
        #expect(try await apps.app(id: "demo")?.publishableKey == nil)
        try await apps.ensureDemoApp()
        let key = try #require(try await apps.app(id: "demo")?.publishableKey)
        try await apps.ensureDemoApp()
        #expect(try await apps.app(id: "demo")?.publishableKey == key, "given once")
        #expect(try await apps.app(publishableKey: key)?.id == "demo")
    }
}
