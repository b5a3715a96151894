import Foundation

/// Finds shared libraries on the build machine, where the dynamic loader would: the
/// multiarch folders, the classic ones, and `LD_LIBRARY_PATH`.
public struct SharedLibraries: Sendable {
    public let folders: [String]

    /// The folders for `machine` (an ELF `e_machine`), then `LD_LIBRARY_PATH`'s.
    public init(machine: UInt16, environment: [String: String] = ProcessInfo.processInfo.environment) {
        let triple = machine == 183 ? "aarch64-linux-gnu" : "x86_64-linux-gnu"
        let extra = (environment["LD_LIBRARY_PATH"] ?? "").split(separator: ":").map(String.init)
        folders =
            extra + [
                "/lib/\(triple)", "/usr/lib/\(triple)", "/lib64", "/usr/lib64", "/lib", "/usr/lib", "/usr/local/lib",
            ]
    }

    public init(folders: [String]) {
        self.folders = folders
    }

    /// The file for soname `name`, symlinks resolved; nil when none of the folders has it.
    public func locate(_ name: String) -> String? {
        for folder in folders {
            let path = "\(folder)/\(name)"
            if FileManager.default.fileExists(atPath: path) {
                return URL(fileURLWithPath: path).resolvingSymlinksInPath().path
            }
        }
        return nil
    }
}
