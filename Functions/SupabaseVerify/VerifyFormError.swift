/// Why a link page's press was not taken before the link was touched.
enum VerifyFormError: Error {
    /// The sign-up password typed is longer than any password can be.
    case passwordTooLong
}
