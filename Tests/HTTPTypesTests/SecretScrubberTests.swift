import Foundation
import HTTPTypes
import Testing

/// Secrets in every form text may carry them; the canary holds each character that changes
/// under some encoding: `" / \ + = %`, a space and a non-ASCII letter.
@Suite struct SecretScrubberTests {
    static let canary = #"k3y"/\+= %é9"#
    let scrubber = SecretScrubber(secrets: [Self.canary])

    /// The canary JSON-escaped the way an encoder may write it.
    static func jsonEscaped(_ text: String, slash: Bool, unicodeAll: Bool) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            if unicodeAll {
                if scalar.value > 0xFFFF {
                    let value = scalar.value - 0x10000
                    out += String(format: "\\u%04X\\u%04x", 0xD800 + (value >> 10), 0xDC00 + (value & 0x3FF))
                } else {
                    out += String(format: "\\u%04x", scalar.value)
                }
                continue
            }
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "/" where slash: out += "\\/"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    static func percentEncoded(_ text: String, lowercase: Bool, plusForSpace: Bool) -> String {
        text.utf8.map { byte -> String in
            if plusForSpace, byte == 0x20 { return "+" }
            let isUnreserved =
                (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
            return isUnreserved ? String(UnicodeScalar(byte)) : String(format: lowercase ? "%%%02x" : "%%%02X", byte)
        }.joined()
    }

    static var forms: [(String, String)] {
        let once = jsonEscaped(canary, slash: false, unicodeAll: false)
        return [
            ("raw", canary),
            ("percent-encoded", percentEncoded(canary, lowercase: false, plusForSpace: false)),
            (
                "percent-encoded, lower-case hex, + for space",
                percentEncoded(canary, lowercase: true, plusForSpace: true)
            ),
            ("JSON-escaped", once),
            ("JSON-escaped with \\/", jsonEscaped(canary, slash: true, unicodeAll: false)),
            ("JSON \\u escapes", jsonEscaped(canary, slash: false, unicodeAll: true)),
            ("JSON-escaped twice", jsonEscaped(once, slash: false, unicodeAll: false)),
            ("JSON-escaped, then percent-encoded", percentEncoded(once, lowercase: false, plusForSpace: false)),
            ("base64", Data(canary.utf8).base64EncodedString()),
            (
                "base64url without padding",
                Data(canary.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-")
                    .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
            ),
        ]
    }

    @Test(arguments: forms)
    func everyFormIsMaskedAndTheRestKept(name: String, form: String) {
        let text = #"{"error":{"message":"token \#(form) rejected"}}"#
        #expect(scrubber.scrub(text) == #"{"error":{"message":"token *** rejected"}}"#, "\(name)")
        #expect(scrubber.scrub(Array(text.utf8)) == Array(#"{"error":{"message":"token *** rejected"}}"#.utf8))
    }

    @Test func aMixOfEscapedAndPlainCharactersIsFoundToo() {
        // Only the quote escaped, the slash percent-encoded: no single encoder writes this.
        let text = #"k3y\"/\\+= %é9 and k3y"%2F\+= %é9"#
        #expect(scrubber.scrub(text) == "*** and ***")
    }

    @Test func basicCredentialsAreMaskedInTheirBase64Form() {
        let scrubber = SecretScrubber(secrets: [], basicCredentials: [(user: "app", password: "s3cr=t/+")])
        let header = "Basic " + Data("app:s3cr=t/+".utf8).base64EncodedString()
        #expect(scrubber.scrub("sent \(header) and s3cr=t/+") == "sent Basic *** and ***")
    }

    @Test func shortValuesAndTextWithoutSecretsAreLeftAlone() {
        let scrubber = SecretScrubber(secrets: ["abc", ""])
        #expect(scrubber.isEmpty)
        #expect(scrubber.scrub("abc abc") == "abc abc")
        let text = #"plain \u00e9 %41 text with \"quotes\""#
        #expect(self.scrubber.scrub(text) == text)
    }

    @Test func aSecretInsideAnotherIsMaskedWhole() {
        let scrubber = SecretScrubber(secrets: ["abcd", "xxabcdxx"])
        #expect(scrubber.scrub("1 xxabcdxx 2 abcd") == "1 *** 2 ***")
    }
}
