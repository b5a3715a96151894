/// What `gatehouse package` checks of a binary and the libraries bundled with it before it
/// zips them: every symbol version within what the target image's libraries provide, and
/// every needed library either in the image or bundled.
public struct PackageCheck: Sendable {
    public let target: LambdaTarget
    public let libraries: SharedLibraries

    public init(target: LambdaTarget, libraries: SharedLibraries) {
        self.target = target
        self.libraries = libraries
    }

    /// What a binary comes to: its glibc floor and the libraries to bundle.
    public struct Outcome: Sendable, Equatable {
        /// The highest `GLIBC_x.y` the binary or a bundled library requires; nil for none.
        public let glibcFloor: SymbolVersion?
        public let bundle: [Library]
    }

    /// A library to bundle: its soname and the file on this machine.
    public struct Library: Sendable, Equatable {
        public let name: String
        public let path: String
    }

    /// Checks `binary` (an ELF file read already) for `target`.
    public func check(_ binary: ELFFile, named name: String) throws(PackageCheckError) -> Outcome {
        var floor: SymbolVersion?
        var bundle: [Library] = []
        var queue: [(file: ELFFile, name: String)] = [(binary, name)]
        var seen = Set<String>()
        var tooNew: [String] = []
        while !queue.isEmpty {
            let (file, fileName) = queue.removeFirst()
            for need in file.versionNeeds {
                guard let version = SymbolVersion(need.version) else { continue }
                if version.family == "GLIBC", floor.map({ $0 < version }) ?? true { floor = version }
                if let problem = problem(with: need, version: version) { tooNew.append("\(fileName) \(problem)") }
            }
            for needed in file.needed where !target.image.provides(needed) && !seen.contains(needed) {
                seen.insert(needed)
                guard let path = libraries.locate(needed) else {
                    throw .missingLibrary(needed, by: fileName, target: target)
                }
                let library: ELFFile
                do {
                    library = try ELFFile(path: path)
                } catch {
                    throw .unreadableLibrary(needed, path: path, reason: "\(error)")
                }
                bundle.append(Library(name: needed, path: path))
                queue.append((library, needed))
            }
        }
        guard tooNew.isEmpty else { throw .tooNew(tooNew, target: target) }
        return Outcome(glibcFloor: floor, bundle: bundle.sorted { $0.name < $1.name })
    }

    /// Why the image cannot meet `need`: the library it names defines no such version family
    /// (Debian's libcurl's `CURL_OPENSSL_4`) or a lower version; nil when it can, or when the
    /// library is not the image's (a bundled one brings its own versions).
    private func problem(with need: ELFFile.VersionNeed, version: SymbolVersion) -> String? {
        guard let families = target.image.libraries[need.library] else { return nil }
        let symbols = need.symbols.isEmpty ? "" : " (\(need.symbols.joined(separator: ", ")))"
        guard let highest = families[version.family] else {
            return
                "needs \(need.version) of \(need.library)\(symbols), which \(target.runtime)'s \(need.library) does not define"
        }
        return highest < version ? "needs \(need.version) of \(need.library)\(symbols)" : nil
    }
}

/// Why a binary cannot run on the target image.
public enum PackageCheckError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Symbol versions the image's libraries do not define: one line per version.
    case tooNew([String], target: LambdaTarget)
    case missingLibrary(String, by: String, target: LambdaTarget)
    case unreadableLibrary(String, path: String, reason: String)

    public var description: String {
        switch self {
        case .tooNew(let lines, let target):
            let ceiling = target.glibc
            return
                "needs library versions that \(target.runtime) does not have (glibc \(ceiling.numbers.map(String.init).joined(separator: "."))):\n  "
                + lines.joined(separator: "\n  ")
        case .missingLibrary(let name, let by, let target):
            return
                "\(by) needs \(name), which \(target.runtime) does not have and which is not on this machine to bundle"
        case .unreadableLibrary(let name, let path, let reason):
            return "cannot read \(name) at \(path) to bundle it: \(reason)"
        }
    }
}
