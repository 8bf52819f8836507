/// Removes secrets (API keys, tokens) from text that may reach an error, a response or a log.
enum Redaction {
  /// `text` with every occurrence of each non-empty secret, raw or percent-encoded,
  /// replaced by `***`.
  static func redact(_ text: String, secrets: [String]) -> String {
    var result = text
    for secret in secrets where !secret.isEmpty {
      for form in Set([secret, QueryEncoding.percentEncode(secret)]) {
        result = result.replacing(form, with: "***")
      }
    }
    return result
  }
}
