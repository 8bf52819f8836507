import Foundation

/// Every form a secret may take in text, computed here independently of the redaction code,
/// for canary tests: raw, percent-encoded (either hex case, `+` for a space), JSON-escaped
/// (with and without `\/`, all `\uXXXX`, twice), and base64 (both alphabets, padded or not).
enum CanaryForms {
    static func forms(of secret: String) -> [String] {
        let once = jsonEscaped(secret, slash: false)
        let base64 = Data(secret.utf8).base64EncodedString()
        let base64URL = base64.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        return Array(
            Set([
                secret, percentEncoded(secret, lowercase: false), percentEncoded(secret, lowercase: true),
                percentEncoded(secret, lowercase: false).replacingOccurrences(of: "%20", with: "+"), once,
                jsonEscaped(secret, slash: true), unicodeEscaped(secret), jsonEscaped(once, slash: false),
                jsonEscaped(jsonEscaped(secret, slash: true), slash: true), base64,
                base64.replacingOccurrences(of: "=", with: ""), base64URL,
                base64URL.replacingOccurrences(of: "=", with: ""),
            ])
        ).sorted()
    }

    /// The forms of `secrets` that `text` contains (empty when none leaked).
    static func leaks(of secrets: [String], in text: String) -> [String] {
        secrets.flatMap { forms(of: $0) }.filter { text.contains($0) }
    }

    private static func jsonEscaped(_ text: String, slash: Bool) -> String {
        var out = ""
        for character in text {
            switch character {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "/" where slash: out += "\\/"
            default: out.append(character)
            }
        }
        return out
    }

    private static func unicodeEscaped(_ text: String) -> String {
        text.unicodeScalars.map { String(format: "\\u%04x", $0.value) }.joined()
    }

    private static func percentEncoded(_ text: String, lowercase: Bool) -> String {
        text.utf8.map { byte -> String in
            let isUnreserved =
                (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                || byte == 0x2D || byte == 0x2E || byte == 0x5F || byte == 0x7E
            return isUnreserved ? String(UnicodeScalar(byte)) : String(format: lowercase ? "%%%02x" : "%%%02X", byte)
        }.joined()
    }
}
