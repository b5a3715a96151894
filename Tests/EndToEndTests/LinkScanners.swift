/// The user agents mail scanners fetch links with: ordinary browsers' (Outlook's Safe Links
/// among them), so no list of scanner agents can tell them from a person.
enum LinkScanners {
    static let agents = [
        "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 "
            + "Safari/537.36 Edg/120.0.0.0",
        "Microsoft Office/16.0 (Windows NT 10.0; Microsoft Outlook 16.0.17126; Pro)",
        "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/120.0.0.0 "
            + "Safari/537.36",
    ]
}
