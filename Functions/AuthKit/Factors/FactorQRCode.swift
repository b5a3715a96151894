/// The QR code of an enrolment's `otpauth://` URI, as the SVG markup Supabase answers in
/// `totp.qr_code` (its clients prepend `data:image/svg+xml;utf-8,`, so the markup holds no `#`
/// or `%`, which that URI would misread).
public enum FactorQRCode {
    /// The SVG of `uri`'s QR code (`QRCode`), 4 modules of light margin around it, each module a
    /// unit of the view box; an empty SVG should the URI be longer than a QR code holds.
    public static func svg(for uri: String) -> String {
        guard let code = QRCode(bytes: Array(uri.utf8)) else {
            return #"<svg xmlns="http://www.w3.org/2000/svg" width="200" height="200" viewBox="0 0 1 1"></svg>"#
        }
        let side = code.size + 8
        var path = ""
        for y in 0..<code.size {
            for x in 0..<code.size where code[x, y] { path += "M\(x + 4) \(y + 4)h1v1h-1z" }
        }
        return #"<svg xmlns="http://www.w3.org/2000/svg" width="200" height="200" viewBox="0 0 \#(side) \#(side)""#
            + #" shape-rendering="crispEdges"><rect width="\#(side)" height="\#(side)" fill="white"/>"#
            + #"<path fill="black" d="\#(path)"/></svg>"#
    }
}
