import Emulator
import Foundation
import Testing

/// ARCHITECTURE.md's module graph is Package.swift's, both ways: every target with exactly
/// the dependencies `swift package dump-package` reports, no more and no fewer.
struct ModuleGraphTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// One row of the documented graph, or one target of the package.
    struct Target: Equatable, CustomStringConvertible {
        var kind: String
        var path: String
        var dependencies: Set<String>
        var description: String { "\(kind) at \(path): \(dependencies.sorted().joined(separator: ", "))" }
    }

    /// The graph as ARCHITECTURE.md writes it, between its markers.
    static func documented() throws -> [String: Target] {
        let text = try String(contentsOf: root.appendingPathComponent("ARCHITECTURE.md"), encoding: .utf8)
        guard let start = text.range(of: "<!-- module-graph:begin -->"),
            let end = text.range(of: "<!-- module-graph:end -->", range: start.upperBound..<text.endIndex)
        else { throw GraphError("ARCHITECTURE.md has no module-graph markers") }
        var targets: [String: Target] = [:]
        for line in text[start.upperBound..<end.lowerBound].split(separator: "\n") where line.hasPrefix("| ") {
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).dropFirst().dropLast()
                .map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count == 4, cells[0] != "target" else { continue }
            let dependencies = cells[3] == "—" ? [] : cells[3].components(separatedBy: ", ")
            targets[cells[0]] = Target(
                kind: cells[1], path: cells[2].trimmingCharacters(in: CharacterSet(charactersIn: "`")),
                dependencies: Set(dependencies))
        }
        // "every function": each executable target in Functions/ (Package.swift's `functions`).
        let functions = targets.filter { $0.value.kind == "executable" && $0.value.path.hasPrefix("Functions/") }.keys
        for (name, target) in targets where target.dependencies.contains(Self.everyFunction) {
            targets[name]?.dependencies = target.dependencies.subtracting([Self.everyFunction]).union(functions)
        }
        return targets
    }

    /// What a row writes for a dependency on each function.
    static let everyFunction = "every function"

    /// The graph as `swift package dump-package` reports Package.swift. Run through the
    /// emulator's `ChildProcess`, as every test here runs a tool: Foundation's `Process` reaps
    /// and closes on its own threads, beside the emulator's processes in this test process.
    static func declared() async throws -> [String: Target] {
        // A scratch folder of its own: `swift test` holds the lock on .build, which dump-package
        // would otherwise wait for.
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("dump-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let run = try await ChildProcess.capture(
            "/usr/bin/env",
            ["swift", "package", "--package-path", root.path, "--scratch-path", scratch.path, "dump-package"])
        guard case .exited(0) = run.termination.reason,
            let package = try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [String: Any],
            let list = package["targets"] as? [[String: Any]]
        else { throw GraphError("swift package dump-package failed: \(run.standardError)") }
        var targets: [String: Target] = [:]
        for target in list {
            guard let name = target["name"] as? String else { continue }
            let dependencies = (target["dependencies"] as? [[String: Any]] ?? []).compactMap(Self.dependencyName)
            targets[name] = Target(
                kind: target["type"] as? String ?? "?", path: target["path"] as? String ?? "?",
                dependencies: Set(dependencies))
        }
        return targets
    }

    /// `Name` for a target, `Product (package)` for a product.
    static func dependencyName(_ dependency: [String: Any]) -> String? {
        for key in ["byName", "target"] {
            if let parts = dependency[key] as? [Any], let name = parts.first as? String { return name }
        }
        if let parts = dependency["product"] as? [Any], let name = parts.first as? String,
            let package = parts.dropFirst().first as? String
        {
            return "\(name) (\(package))"
        }
        return nil
    }

    struct GraphError: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    @Test func theDocumentedGraphIsPackageSwifts() async throws {
        let documented = try Self.documented()
        let declared = try await Self.declared()
        #expect(!declared.isEmpty)
        for (name, target) in declared {
            #expect(
                documented[name] == target,
                "ARCHITECTURE.md on \(name): \(documented[name].map(String.init(describing:)) ?? "missing"); Package.swift: \(target)"
            )
        }
        for name in documented.keys where declared[name] == nil {
            Issue.record("ARCHITECTURE.md lists \(name), which Package.swift does not have")
        }
    }

    /// The never-rules the graph exists for: a function binary links no emulator, CLI, test
    /// support or HTTP server, and no event-loop HTTP client or its TLS stack (its outbound calls
    /// go through OutboundHTTP, on libcurl) — directly or through any module it depends on.
    @Test func noFunctionLinksTheEmulatorAServerOrAnEventLoopClient() async throws {
        let forbidden: Set<String> = [
            "Emulator", "Gatehouse", "DevServer", "TestServers", "Hummingbird (hummingbird)",
            "HummingbirdCore (hummingbird)",
            "HummingbirdTLS (hummingbird)", "NIOPosix (swift-nio)", "NIOHTTP1 (swift-nio)", "NIOSSL (swift-nio-ssl)",
            "AsyncHTTPClient (async-http-client)",
        ]
        let declared = try await Self.declared()
        let functions = declared.filter { $0.value.path.hasPrefix("Functions/") }
        #expect(functions.count >= 9)
        for name in functions.keys {
            let linked = Self.closure(of: name, in: declared)
            #expect(linked.isDisjoint(with: forbidden), "\(name) links \(linked.intersection(forbidden).sorted())")
        }
    }

    /// Every module `name` links: its dependencies, theirs, and so on (a product of another
    /// package counts as one name, as the table writes it).
    static func closure(of name: String, in declared: [String: Target]) -> Set<String> {
        var seen = Set<String>()
        var queue = Array(declared[name]?.dependencies ?? [])
        while let next = queue.popLast() {
            guard seen.insert(next).inserted else { continue }
            queue += declared[next]?.dependencies ?? []
        }
        return seen
    }
}
