import HTTPTypes

/// Removes secrets (API keys, tokens) from text that may reach an error, a response or a log.
package enum Redaction {
    /// `text` with every secret (of at least `SecretScrubber.minimumSecretLength` bytes) in every
    /// form an upstream may echo it in (raw, percent-encoded, JSON-escaped, base64) replaced by
    /// `***`.
    package static func redact(_ text: String, secrets: [String]) -> String {
        SecretScrubber(secrets: secrets).scrub(text)
    }
}
