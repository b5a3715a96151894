import AsyncHTTPClient
import Emulator
import Foundation
import GatehouseJSON
import NIOCore
import NIOHTTP1

#if canImport(Glibc)
import Glibc
#endif

/// `gatehouse start-api` as a real process on a free port, and an HTTP client to talk to it.
final class LocalAPI: Sendable {
    let process: ChildProcess
    let port: Int
    let logPath: String
    /// A value only this server's function processes have in their environment.
    let marker = UUID().uuidString

    /// Redirects come back as they are, for the tests to read.
    static let client = HTTPClient(
        eventLoopGroupProvider: .singleton, configuration: .init(redirectConfiguration: .disallow))

    /// Starts `gatehouse start-api --port 0` (or `command`, e.g. `start-lambda`) on `template` and
    /// waits until it listens. `variables` are env-vars entries per function, beside the marker
    /// every function gets.
    init(
        template: String, cli: GatehouseCLI, command: String = "start-api", extra: [String] = [],
        variables: [String: [String: String]] = [:]
    ) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("start-api-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        logPath = folder.appendingPathComponent("stderr").path
        let envVars = folder.appendingPathComponent("env.json")
        var entries: [String: [String: String]] = variables
        entries["Parameters", default: [:]]["GATEHOUSE_TEST_MARKER"] = marker
        // Today's scrypt cost takes seconds a hash in a debug build under racing requests: the
        // password functions hash at 2^10 here, as the unit tests do (PasswordHasher(environment:)).
        entries["Parameters", default: [:]]["PASSWORD_HASH_COST"] = "ln=10,r=8,p=1"
        // The functions that fetch a JWKS fetch it from this busy machine (a test's server, or
        // start-api's own dev provider): 8 s rather than 3, unless a test says otherwise.
        for function in ["Authorizer", "VerifyApple", "OAuthCallback"]
        where entries[function]?["JWKS_FETCH_TIMEOUT_SECONDS"] == nil {
            entries[function, default: [:]]["JWKS_FETCH_TIMEOUT_SECONDS"] = "8"
        }
        try JSONEncoder().encode(entries).write(to: envVars)
        var environment = ProcessInfo.processInfo.environment
        environment["SIGNING_KEYS_FILE"] = cli.keysFile
        environment["GATEHOUSE_STORE"] = cli.storeFile
        environment.removeValue(forKey: "SIGNING_KEYS")
        process = try ChildProcess(
            executable: GatehouseCLI.binDirectory.appendingPathComponent("gatehouse").path,
            arguments: [
                command, "--port", "0", "--no-build", "--template", template, "--env-vars", envVars.path,
            ] + extra,
            environment: environment, directory: GatehouseCLI.repositoryRoot.path,
            output: .file(folder.appendingPathComponent("stdout").path), error: .file(logPath))
        var found: Int?
        for _ in 0..<300 where found == nil {
            let log = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
            // `--host localhost` (the browser's passkey tests) listens on 127.0.0.1 all the same.
            if let line = log.split(separator: "\n").first(where: {
                $0.hasPrefix("Listening on http://127.0.0.1:") || $0.hasPrefix("Listening on http://localhost:")
            }) {
                found = Int(line.split(separator: ":")[2].split(separator: " ")[0])
            }
            if found == nil { try await Task.sleep(for: .milliseconds(50)) }
        }
        guard let found else {
            process.kill()
            throw LocalAPIError.didNotStart((try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "")
        }
        port = found
    }

    /// Runs `body` against a fresh start-api on `template`, and stops it however `body` ends.
    static func with(
        template: String = GatehouseCLI.projectTemplate, cli: GatehouseCLI, command: String = "start-api",
        extra: [String] = [], variables: [String: [String: String]] = [:], _ body: (LocalAPI) async throws -> Void
    ) async throws {
        let api = try await LocalAPI(template: template, cli: cli, command: command, extra: extra, variables: variables)
        do {
            try await body(api)
        } catch {
            _ = await api.stop()
            throw error
        }
        _ = await api.stop()
    }

    var log: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }

    /// How many times the test authorizer logged `authorizing`, once `expected` lines are in the
    /// log or 10 s have passed. A function's log reaches the emulator's through a pipe, so it
    /// may arrive just after the answer it belongs to.
    func authorizerRuns(reaching expected: Int) async throws -> Int {
        func count() -> Int {
            log.split(separator: "\n").filter { $0.contains("\"message\":\"authorizing\"") }.count
        }
        _ = try await eventually(10) { count() >= expected }
        return count()
    }

    /// Sends a request (to another port of the server, e.g. its `--lambda-port`, when given); the
    /// status, the headers (lower-cased names, in order) and the body.
    func request(
        _ method: String, _ path: String, headers: [(String, String)] = [], body: [UInt8]? = nil, port: Int? = nil
    ) async throws -> (status: Int, headers: [(String, String)], body: [UInt8]) {
        var request = HTTPClientRequest(url: "http://127.0.0.1:\(port ?? self.port)\(path)")
        request.method = .init(rawValue: method)
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        if let body { request.body = .bytes(ByteBuffer(bytes: body)) }
        do {
            let response = try await Self.client.execute(request, timeout: .seconds(30))
            let bytes = try await response.body.collect(upTo: 16 * 1024 * 1024)
            return (
                Int(response.status.code), response.headers.map { ($0.name.lowercased(), $0.value) },
                Array(bytes.readableBytesView)
            )
        } catch {
            // What the server was doing says more than the socket error alone.
            throw LocalAPIError.requestFailed(
                "\(method) \(path): \(error)", serverRunning: !process.hasExited,
                log: String(log.suffix(4000)))
        }
    }

    /// Signs `email` in to `app` (`demo` unless said) as a developer would: a code from
    /// `gatehouse dev auth-code`, exchanged through this API. The exchange's status and the
    /// access token.
    func signIn(
        _ email: String, app: String = "demo", cli: GatehouseCLI
    ) async throws -> (status: Int, accessToken: String?) {
        let mint = try await cli.run(["dev", "auth-code", "--app", app, "--email", email])
        let code = mint.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
        let exchanged = try await request(
            "POST", "/auth/exchange", headers: [("Content-Type", "application/json")],
            body: Array(#"{"code":"\#(code)","app":"\#(app)"}"#.utf8))
        return (exchanged.status, try? JSONValue(parsing: exchanged.body)["accessToken"]?.stringValue)
    }

    /// The function processes this server started that are living now (see `ProcessTable`).
    func functionProcesses(excluding functions: Set<String> = []) -> [pid_t] {
        ProcessTable.living(withEnvironment: "GATEHOUSE_TEST_MARKER=\(marker)").filter { pid in
            !functions.contains { ProcessTable.hasEnvironment(pid, "AWS_LAMBDA_FUNCTION_NAME=\($0)") }
        }
    }

    /// The function processes of routes: every one but the authorizers' (`authorizer`), which
    /// start-api starts at start-up.
    func routeProcesses(authorizer: String = "Guard") -> [pid_t] {
        functionProcesses(excluding: [authorizer])
    }

    /// Sends `signal` and waits for the server to exit; its exit.
    func stop(_ signal: Int32 = SIGINT) async -> ChildProcess.Termination {
        process.kill(signal)
        return await process.terminated()
    }
}

enum LocalAPIError: Error {
    case didNotStart(String)
    /// A request that got no answer: the error, whether start-api was still running, the end of its log.
    case requestFailed(String, serverRunning: Bool, log: String)
}
