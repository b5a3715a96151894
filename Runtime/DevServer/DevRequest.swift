import Emulator
import Foundation
import HTTPEdge

/// What the dev routes read from a request: its path without a trailing slash, its query or
/// form fields, and its cookies.
struct DevRequest {
    let method: String
    let path: String
    let query: [String: String]
    private let request: APIRequest

    init(_ request: APIRequest) {
        self.request = request
        method = request.method
        path =
            request.rawPath.count > 1 && request.rawPath.hasSuffix("/")
            ? String(request.rawPath.dropLast()) : request.rawPath
        query = FormBody(bytes: request.rawQuery.utf8).fields
    }

    /// A form POST's fields; empty for another content type or a body over 16 KiB.
    var form: [String: String] {
        guard request.body.count <= 16 * 1024,
            request.values(of: "content-type").first?.lowercased().hasPrefix("application/x-www-form-urlencoded")
                == true
        else { return [:] }
        return FormBody(bytes: request.body).fields
    }

    /// The first value of header `name`.
    func header(_ name: String) -> String? { request.values(of: name).first }

    /// The value of cookie `name`.
    func cookie(_ name: String) -> String? {
        for header in request.values(of: "cookie") {
            for pair in header.split(separator: ";") {
                let parts = pair.split(separator: "=", maxSplits: 1)
                if parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces) == name {
                    return String(parts[1]).trimmingCharacters(in: .whitespaces)
                }
            }
        }
        return nil
    }
}
