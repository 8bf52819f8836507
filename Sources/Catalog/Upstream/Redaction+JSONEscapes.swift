extension Redaction {
    /// `text` with every secret replaced by `***` in any form a JSON string can spell it:
    /// each character as itself or as an escape (`\"`, `\\`, `\/`, `\b`, `\f`, `\n`, `\r`, `\t`,
    /// `\uXXXX` in either case, surrogate pairs included), on top of `redact`'s raw and
    /// percent-encoded forms. For response bodies kept on disk, where an API that echoes a key
    /// writes it JSON-escaped, and escapers differ (`/` or `\/`, `é` or `\u00e9`).
    static func redactAllForms(_ text: String, secrets: [String]) -> String {
        var scalars = Array(redact(text, secrets: secrets).unicodeScalars)
        for secret in secrets where secret.count >= minimumSecretLength {
            let target = Array(secret.unicodeScalars)
            guard scalars.contains("\\") else { break }
            var out: [Unicode.Scalar] = []
            out.reserveCapacity(scalars.count)
            var i = 0
            while i < scalars.count {
                if let end = escapedMatch(of: target, in: scalars, at: i) {
                    out.append(contentsOf: "***".unicodeScalars)
                    i = end
                } else {
                    out.append(scalars[i])
                    i += 1
                }
            }
            scalars = out
        }
        var result = ""
        result.unicodeScalars.append(contentsOf: scalars)
        return result
    }

    /// The index just past `target` spelled from `start` with any mix of literal characters
    /// and JSON escapes; nil when it is not there.
    private static func escapedMatch(of target: [Unicode.Scalar], in scalars: [Unicode.Scalar], at start: Int) -> Int? {
        var i = start
        for expected in target {
            guard i < scalars.count else { return nil }
            if scalars[i] == "\\", let (decoded, next) = jsonEscape(in: scalars, at: i), decoded == expected {
                i = next
            } else if scalars[i] == expected {
                i += 1
            } else {
                return nil
            }
        }
        return i
    }

    /// The character a JSON escape at `index` (a backslash) stands for, and the index after it.
    private static func jsonEscape(in scalars: [Unicode.Scalar], at index: Int) -> (Unicode.Scalar, Int)? {
        guard index + 1 < scalars.count else { return nil }
        switch scalars[index + 1] {
        case "\"": return ("\"", index + 2)
        case "\\": return ("\\", index + 2)
        case "/": return ("/", index + 2)
        case "b": return ("\u{08}", index + 2)
        case "f": return ("\u{0C}", index + 2)
        case "n": return ("\n", index + 2)
        case "r": return ("\r", index + 2)
        case "t": return ("\t", index + 2)
        case "u":
            guard let high = hex4(scalars, index + 2) else { return nil }
            if (0xD800..<0xDC00).contains(high), index + 7 < scalars.count, scalars[index + 6] == "\\",
                scalars[index + 7] == "u", let low = hex4(scalars, index + 8),
                (0xDC00..<0xE000).contains(low)
            {
                let value = 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)
                return Unicode.Scalar(value).map { ($0, index + 12) }
            }
            return Unicode.Scalar(high).map { ($0, index + 6) }
        default: return nil
        }
    }

    /// Four hexadecimal digits from `start` as a number; nil when they are not.
    private static func hex4(_ scalars: [Unicode.Scalar], _ start: Int) -> UInt32? {
        guard start + 4 <= scalars.count,
            scalars[start..<(start + 4)].allSatisfy({ $0.isASCII && $0.properties.isASCIIHexDigit })
        else { return nil }
        var digits = ""
        digits.unicodeScalars.append(contentsOf: scalars[start..<(start + 4)])
        return UInt32(digits, radix: 16)
    }
}
