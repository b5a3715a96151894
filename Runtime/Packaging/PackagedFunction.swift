import Foundation

/// A packaged function unzipped where it can run, so `--packaged` tests the exact artifact:
/// `output/.unzipped/NAME/bootstrap` and its `lib/`, as Lambda lays out `/var/task`.
public enum PackagedFunction {
    /// Unzips `output/NAME.zip` afresh; the path of its `bootstrap`.
    public static func unpack(_ name: String, output: String) throws -> String {
        // Absolute: the function starts in its own folder, where a relative path would not lead.
        let output = URL(fileURLWithPath: output).standardizedFileURL.path
        let zip = "\(output)/\(name).zip"
        guard let data = FileManager.default.contents(atPath: zip) else {
            throw PackagedFunctionError.noZip(name, path: zip)
        }
        let archive = try ZipArchive(reading: Array(data))
        let folder = "\(output)/.unzipped/\(name)"
        try? FileManager.default.removeItem(atPath: folder)
        for entry in archive.entries {
            guard !entry.path.hasPrefix("/"), !entry.path.split(separator: "/").contains("..") else {
                throw PackagedFunctionError.unsafePath(entry.path, zip: zip)
            }
            let url = URL(fileURLWithPath: "\(folder)/\(entry.path)")
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(entry.data).write(to: url)
            try FileManager.default.setAttributes([.posixPermissions: Int(entry.mode)], ofItemAtPath: url.path)
        }
        let bootstrap = "\(folder)/bootstrap"
        guard FileManager.default.isExecutableFile(atPath: bootstrap) else {
            throw PackagedFunctionError.noBootstrap(zip)
        }
        return bootstrap
    }
}

/// Why a packaged function cannot run.
public enum PackagedFunctionError: Error, CustomStringConvertible {
    case noZip(String, path: String)
    case noBootstrap(String)
    case unsafePath(String, zip: String)

    public var description: String {
        switch self {
        case .noZip(let name, let path): "no package for \(name) at \(path): run `gatehouse package \(name)` first"
        case .noBootstrap(let zip): "\(zip) has no executable bootstrap at its root"
        case .unsafePath(let path, let zip): "\(zip) has an entry outside its folder: \(path)"
        }
    }
}
