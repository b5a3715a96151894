import Foundation

/// Turns one function's binary into its deployable zip: `bootstrap` (stripped, mode 0755) at
/// the root and the shared libraries the target image lacks in `lib/`, after the checks of
/// `PackageCheck`, within Lambda's 50 MB limit for a direct upload.
public struct FunctionPackager: Sendable {
    public let target: LambdaTarget
    /// Where the zips go (`dist`).
    public let output: String
    /// Whether a binary without unwind tables that catches C++ exceptions is refused
    /// (`UnwindTables.check`). Release builds only: a debug build keeps catch-and-rethrow
    /// cleanups of libstdc++'s templates (`std::__do_uninit_copy` in BoringSSL) that
    /// optimisation removes, where nothing can throw.
    public let checksExceptionCatching: Bool

    /// Lambda's limit on a zip uploaded directly.
    public static let maximumZipBytes = 50 * 1024 * 1024

    public init(target: LambdaTarget, output: String, checksExceptionCatching: Bool = true) {
        self.target = target
        self.output = output
        self.checksExceptionCatching = checksExceptionCatching
    }

    /// What packaging one function came to.
    public struct Report: Sendable {
        public let function: String
        /// The stripped `bootstrap`'s size.
        public let binaryBytes: Int
        public let zipBytes: Int
        public let zipPath: String
        public let glibcFloor: SymbolVersion?
        /// The sonames bundled in `lib/`.
        public let bundled: [String]
        /// The binary's ELF `e_machine`: 62 for x86_64, 183 for arm64.
        public let machine: UInt16
        /// Where the stripped binary's bytes go, by module (symbols read before stripping).
        public let sizes: ModuleSizes
    }

    /// Packages the binary at `binary` as function `name`: `output/name.zip`, replaced whole.
    public func package(name: String, binary: String, libraries: SharedLibraries? = nil) throws -> Report {
        let file = try ELFFile(path: binary)
        let check = PackageCheck(target: target, libraries: libraries ?? SharedLibraries(machine: file.machine))
        let outcome = try check.check(file, named: name)
        if checksExceptionCatching { try UnwindTables.check(file, named: name) }
        let stripped = try Stripper.strippedBytes(of: binary)
        var entries = [ZipArchive.Entry(path: "bootstrap", data: stripped, mode: 0o755)]
        for library in outcome.bundle {
            entries.append(
                .init(
                    path: "lib/\(library.name)", data: Array(try Data(contentsOf: URL(fileURLWithPath: library.path))),
                    mode: 0o755))
        }
        let zip = try ZipArchive(entries: entries).bytes()
        guard zip.count <= Self.maximumZipBytes else {
            throw FunctionPackagerError.tooLarge(name, bytes: zip.count)
        }
        try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
        let path = "\(output)/\(name).zip"
        try Data(zip).write(to: URL(fileURLWithPath: path), options: .atomic)
        return Report(
            function: name, binaryBytes: stripped.count, zipBytes: zip.count, zipPath: path,
            glibcFloor: outcome.glibcFloor, bundled: outcome.bundle.map(\.name), machine: file.machine,
            sizes: try ModuleSizes(binary: binary, strippedBytes: stripped.count))
    }
}

/// A package that Lambda would refuse.
public enum FunctionPackagerError: Error, CustomStringConvertible {
    case tooLarge(String, bytes: Int)

    public var description: String {
        switch self {
        case .tooLarge(let name, let bytes):
            "\(name).zip is \(bytes) bytes, over Lambda's \(FunctionPackager.maximumZipBytes)-byte limit for a direct upload"
        }
    }
}
