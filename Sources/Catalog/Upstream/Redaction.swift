/// Removes secrets (API keys, tokens) from text that may reach an error, a response or a log.
enum Redaction {
    /// Secrets shorter than this are left alone: no upstream issues keys that short, and
    /// replacing every `t` of a message would only garble it.
    static let minimumSecretLength = 4

    /// `text` with every occurrence of each secret (of at least `minimumSecretLength`
    /// characters), raw or percent-encoded, replaced by `***`.
    static func redact(_ text: String, secrets: [String]) -> String {
        var result = text
        for secret in secrets where secret.count >= minimumSecretLength {
            for form in Set([secret, QueryEncoding.percentEncode(secret)]) {
                result = result.replacing(form, with: "***")
            }
        }
        return result
    }
}
