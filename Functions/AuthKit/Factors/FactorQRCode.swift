/// The QR code of an enrolment's `otpauth://` URI, as the SVG markup Supabase answers in
/// `totp.qr_code` (its clients prepend `data:image/svg+xml;utf-8,`).
public enum FactorQRCode {
    /// Not built yet: an empty SVG (a blank square), which draws nothing; the app shows `uri` or
    /// `secret` instead (docs/supabase.md).
    public static func svg(for uri: String) -> String {
        #"<svg xmlns="http://www.w3.org/2000/svg" width="200" height="200" viewBox="0 0 200 200"></svg>"#
    }
}
