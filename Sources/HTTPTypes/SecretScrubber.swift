/// Removes secrets (API keys, tokens) from text in every form the text may carry them: as they
/// are, percent-encoded (`%22` or `%2f`, either case, `+` for a space), JSON-escaped (`\"`,
/// `\\`, `\/`, `\uXXXX` in either case, surrogate pairs), JSON-escaped twice (an upstream's JSON
/// error body quoted inside another JSON string), and base64 (standard and URL alphabets, with
/// and without padding) of the secret itself and of `user:secret` for Basic authentication.
///
/// The approach: each decoding is a lenient *view* of the text that maps every decoded byte back
/// to the original bytes it came from; a secret found in any view has those original bytes
/// replaced by `***`. So forms are never enumerated by hand, and a mix (one character escaped,
/// the next one not) is found too. Secrets shorter than `minimumSecretLength` bytes are ignored:
/// no upstream issues keys that short, and masking every `t` of a message would only garble it.
public struct SecretScrubber: Sendable {
    public static let mask = "***"
    /// Four bytes: shorter values are not secrets anyone issues.
    public static let minimumSecretLength = 4

    /// The byte strings searched for in every view: the secrets and their base64 forms.
    private let needles: [[UInt8]]

    /// - Parameters:
    ///   - secrets: key and token values.
    ///   - basicCredentials: `(user, password)` pairs sent as `Authorization: Basic`; the base64
    ///     of `user:password` is masked too (the password alone is a secret already).
    public init(secrets: [String], basicCredentials: [(user: String, password: String)] = []) {
        var forms: Set<[UInt8]> = []
        let plain = secrets.filter { $0.utf8.count >= Self.minimumSecretLength }
        for secret in plain {
            forms.insert(Array(secret.utf8))
            forms.formUnion(Self.base64Forms(Array(secret.utf8)))
        }
        for (user, password) in basicCredentials where password.utf8.count >= Self.minimumSecretLength {
            forms.insert(Array(password.utf8))
            forms.formUnion(Self.base64Forms(Array("\(user):\(password)".utf8)))
        }
        // Longest first, so a secret containing another is masked whole.
        needles = forms.filter { $0.count >= Self.minimumSecretLength }.sorted {
            $0.count > $1.count || ($0.count == $1.count && $0.lexicographicallyPrecedes($1))
        }
    }

    /// Whether there is anything to mask at all.
    public var isEmpty: Bool { needles.isEmpty }

    /// `text` with every secret, in every form, replaced by `***`.
    public func scrub(_ text: String) -> String {
        guard !needles.isEmpty else { return text }
        let bytes = Array(text.utf8)
        let scrubbed = scrub(bytes)
        return scrubbed == bytes ? text : String(decoding: scrubbed, as: UTF8.self)
    }

    /// `bytes` (UTF-8 text, or any bytes) with every secret, in every form, replaced by `***`.
    public func scrub(_ bytes: [UInt8]) -> [UInt8] {
        guard !needles.isEmpty else { return bytes }
        var text = bytes
        // Twice JSON-escaped, once escaped, percent-encoded, escaped after percent-decoding, raw:
        // each pass sees what the previous ones left.
        let views: [[Decoding]] = [
            [.json, .json], [.json], [.percent(plusIsSpace: true)], [.percent(plusIsSpace: false)],
            [.percent(plusIsSpace: false), .json], [],
        ]
        for view in views {
            text = mask(in: text, view: view)
        }
        return text
    }

    // MARK: - Views

    private enum Decoding {
        case json
        /// A `+` in a form-encoded value is a space, elsewhere a plus: one view for each reading.
        case percent(plusIsSpace: Bool)
    }

    /// One decoded byte and the range of original bytes it stands for.
    private struct Mapped {
        var byte: UInt8
        var start: Int
        var end: Int
    }

    private func mask(in text: [UInt8], view: [Decoding]) -> [UInt8] {
        var mapped = text.indices.map { Mapped(byte: text[$0], start: $0, end: $0 + 1) }
        for decoding in view {
            switch decoding {
            case .json: mapped = Self.jsonUnescaped(mapped)
            case .percent(let plusIsSpace): mapped = Self.percentDecoded(mapped, plusIsSpace: plusIsSpace)
            }
        }
        var ranges: [Range<Int>] = []
        let decoded = mapped.map(\.byte)
        for needle in needles {
            var index = 0
            while let found = Self.find(needle, in: decoded, from: index) {
                let range = mapped[found].start..<mapped[found + needle.count - 1].end
                if !ranges.contains(where: { $0.overlaps(range) }) { ranges.append(range) }
                index = found + needle.count
            }
        }
        guard !ranges.isEmpty else { return text }
        var out: [UInt8] = []
        out.reserveCapacity(text.count)
        var position = 0
        for range in ranges.sorted(by: { $0.lowerBound < $1.lowerBound }) {
            out.append(contentsOf: text[position..<range.lowerBound])
            out.append(contentsOf: Self.mask.utf8)
            position = range.upperBound
        }
        out.append(contentsOf: text[position...])
        return out
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int? {
        guard needle.count <= haystack.count - start, let first = needle.first else { return nil }
        var index = start
        while index + needle.count <= haystack.count {
            if haystack[index] == first, haystack[index..<(index + needle.count)].elementsEqual(needle) { return index }
            index += 1
        }
        return nil
    }

    /// JSON string escapes decoded (RFC 8259 §7); anything else kept as it is.
    private static func jsonUnescaped(_ input: [Mapped]) -> [Mapped] {
        var out: [Mapped] = []
        out.reserveCapacity(input.count)
        var index = 0
        while index < input.count {
            let current = input[index]
            guard current.byte == UInt8(ascii: "\\"), index + 1 < input.count else {
                out.append(current)
                index += 1
                continue
            }
            let next = input[index + 1].byte
            if let simple = shortEscapes[next] {
                out.append(Mapped(byte: simple, start: current.start, end: input[index + 1].end))
                index += 2
            } else if next == UInt8(ascii: "u"), let (scalar, length) = unicodeEscape(input, at: index) {
                let end = input[index + length - 1].end
                for byte in String(Character(scalar)).utf8 {
                    out.append(Mapped(byte: byte, start: current.start, end: end))
                }
                index += length
            } else {
                out.append(current)
                index += 1
            }
        }
        return out
    }

    private static let shortEscapes: [UInt8: UInt8] = [
        UInt8(ascii: "\""): UInt8(ascii: "\""), UInt8(ascii: "\\"): UInt8(ascii: "\\"),
        UInt8(ascii: "/"): UInt8(ascii: "/"), UInt8(ascii: "b"): 0x08, UInt8(ascii: "f"): 0x0C,
        UInt8(ascii: "n"): 0x0A, UInt8(ascii: "r"): 0x0D, UInt8(ascii: "t"): 0x09,
    ]

    /// `\uXXXX` at `index` (or a surrogate pair `\uD83D\uDE00`): the scalar and how many bytes.
    private static func unicodeEscape(_ input: [Mapped], at index: Int) -> (Unicode.Scalar, Int)? {
        guard let unit = hexValue(input, from: index + 2, digits: 4) else { return nil }
        if (0xD800..<0xDC00).contains(unit), index + 12 <= input.count, input[index + 6].byte == UInt8(ascii: "\\"),
            input[index + 7].byte == UInt8(ascii: "u"), let low = hexValue(input, from: index + 8, digits: 4),
            (0xDC00..<0xE000).contains(low)
        {
            let value = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
            return Unicode.Scalar(UInt32(value)).map { ($0, 12) }
        }
        return Unicode.Scalar(UInt32(unit)).map { ($0, 6) }
    }

    /// `%XX` decoded (either case), `+` read as a space if `plusIsSpace`; anything else kept.
    private static func percentDecoded(_ input: [Mapped], plusIsSpace: Bool) -> [Mapped] {
        var out: [Mapped] = []
        out.reserveCapacity(input.count)
        var index = 0
        while index < input.count {
            let current = input[index]
            if current.byte == UInt8(ascii: "%"), let value = hexValue(input, from: index + 1, digits: 2) {
                out.append(Mapped(byte: UInt8(value), start: current.start, end: input[index + 2].end))
                index += 3
            } else if plusIsSpace, current.byte == UInt8(ascii: "+") {
                out.append(Mapped(byte: UInt8(ascii: " "), start: current.start, end: current.end))
                index += 1
            } else {
                out.append(current)
                index += 1
            }
        }
        return out
    }

    private static func hexValue(_ input: [Mapped], from start: Int, digits: Int) -> Int? {
        guard start + digits <= input.count else { return nil }
        var value = 0
        for offset in 0..<digits {
            let byte = input[start + offset].byte
            let digit: Int
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = Int(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = Int(byte - UInt8(ascii: "a")) + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = Int(byte - UInt8(ascii: "A")) + 10
            default: return nil
            }
            value = value << 4 | digit
        }
        return value
    }

    // MARK: - Base64

    /// RFC 4648 base64 of `bytes` in the standard and URL alphabets, padded and not.
    private static func base64Forms(_ bytes: [UInt8]) -> [[UInt8]] {
        let standard = base64(bytes, alphabet: standardAlphabet)
        let url = base64(bytes, alphabet: urlAlphabet)
        let unpadded = { (form: [UInt8]) in Array(form.prefix { $0 != UInt8(ascii: "=") }) }
        return [standard, unpadded(standard), url, unpadded(url)]
    }

    private static let standardAlphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
    private static let urlAlphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    private static func base64(_ bytes: [UInt8], alphabet: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        var index = 0
        while index < bytes.count {
            let chunk = bytes[index..<min(index + 3, bytes.count)]
            let value = chunk.enumerated().reduce(0) { $0 | Int($1.element) << (16 - 8 * $1.offset) }
            for position in 0..<4 {
                out.append(
                    position <= chunk.count ? alphabet[(value >> (18 - 6 * position)) & 0x3F] : UInt8(ascii: "="))
            }
            index += 3
        }
        return out
    }
}
