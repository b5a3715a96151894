import ArgumentParser

/// `--packaged [--output dist]`: run the unzipped packages instead of the dev build.
struct PackagedOptions: ParsableArguments {
    @Flag(help: "Run the functions from their zips (gatehouse package) instead of the dev build.")
    var packaged = false

    @Option(help: "Where the zips are, for --packaged (default: dist beside the template).")
    var output: String?

    /// The folder of the zips when `--packaged`, else nil.
    func folder(project: ProjectOptions) -> String? {
        guard packaged else { return nil }
        return output ?? "\(project.projectDirectory)/dist"
    }
}
