import Foundation

extension LocalAPI {
    /// A person's click on an emailed link (`path`, from the outbox): the GET, which must
    /// answer a page with one form, then that form's POST as a browser submits it (its action
    /// resolved against the link, its hidden fields form-encoded). The POST's answer.
    func click(
        _ path: String, headers: [(String, String)] = []
    ) async throws -> (status: Int, headers: [(String, String)], body: [UInt8]) {
        let page = try await request("GET", path, headers: headers)
        guard page.status == 200, let form = LinkForm(html: String(decoding: page.body, as: UTF8.self)) else {
            throw LinkFormError.noForm(
                status: page.status, body: String(decoding: page.body.prefix(400), as: UTF8.self))
        }
        let pathOnly = String(path.split(separator: "?", maxSplits: 1)[0])
        let target = "/" + pathOnly.split(separator: "/").dropLast().joined(separator: "/") + "/" + form.action
        return try await postForm(target, form.encodedFields, headers: headers)
    }

    /// A form's POST as a browser sends it: `fields` already form-encoded, with `headers`.
    func postForm(
        _ path: String, _ fields: String, headers: [(String, String)] = []
    ) async throws -> (status: Int, headers: [(String, String)], body: [UInt8]) {
        try await request(
            "POST", path, headers: headers + [("Content-Type", "application/x-www-form-urlencoded")],
            body: Array(fields.utf8))
    }
}

/// The one form of a link's page: its relative action and its hidden fields.
struct LinkForm {
    let action: String
    let fields: [(String, String)]

    init?(html: String) {
        guard let action = Self.attribute("action", in: html) else { return nil }
        self.action = action
        fields = html.components(separatedBy: "<input type=\"hidden\" ").dropFirst().compactMap { tag in
            guard let name = Self.attribute("name", in: tag), let value = Self.attribute("value", in: tag) else {
                return nil
            }
            return (name, Self.unescaped(value))
        }
    }

    var encodedFields: String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return fields.map { name, value in
            "\(name)=\(value.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")"
        }.joined(separator: "&")
    }

    private static func attribute(_ name: String, in html: String) -> String? {
        guard let start = html.range(of: "\(name)=\"") else { return nil }
        let rest = html[start.upperBound...]
        guard let end = rest.firstIndex(of: "\"") else { return nil }
        return String(rest[..<end])
    }

    private static func unescaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#39;", with: "'")
            .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&amp;", with: "&")
    }
}

enum LinkFormError: Error {
    case noForm(status: Int, body: String)
}
