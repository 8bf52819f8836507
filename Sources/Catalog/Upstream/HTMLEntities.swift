/// Decoding of the HTML character references YouTube puts into search-result titles and
/// descriptions (`&amp;`, `&#39;`, `&quot;`; API-FACTS §4 "Text quirks").
enum HTMLEntities {
    private static let named: [Substring: Character] = [
        "amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": "\u{00A0}",
    ]

    /// `text` with named references from a small table and all numeric references
    /// (`&#NNN;`, `&#xHH;`) decoded; anything unrecognised is left as it is.
    ///
    /// Read as UTF-8 bytes: a reference is ASCII, so a window of 12 bytes after `&` holds every
    /// one that 12 characters would (one with other characters in it is unrecognised anyway),
    /// and the bytes between references are copied as they are. Walking `Character`s and
    /// asking Foundation whether there is a `&` at all cost 27,000 instructions per title, 150
    /// searches' titles on the nested query's critical path. A reference ends at its `;` even
    /// when a combining mark follows (HTML reads code points; as a `Character`, `;` with the
    /// mark was no `;`, and the reference stayed undecoded).
    static func decode(_ text: String) -> String {
        guard text.utf8.contains(UInt8(ascii: "&")) else { return text }
        let bytes = Array(text.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var i = 0
        while i < bytes.count {
            guard bytes[i] == UInt8(ascii: "&") else {
                out.append(bytes[i])
                i += 1
                continue
            }
            // References are short; a `;` further away means a literal `&`.
            let window = (i + 1)..<min(bytes.count, i + 13)
            guard let semi = bytes[window].firstIndex(of: UInt8(ascii: ";")),
                let character = character(for: Substring(decoding: bytes[(i + 1)..<semi], as: UTF8.self))
            else {
                out.append(UInt8(ascii: "&"))
                i += 1
                continue
            }
            out.append(contentsOf: character.utf8)
            i = semi + 1
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static func character(for name: Substring) -> Character? {
        if name.hasPrefix("#x") || name.hasPrefix("#X") {
            return UInt32(name.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init).map(Character.init)
        }
        if name.hasPrefix("#") {
            return UInt32(name.dropFirst(), radix: 10).flatMap(Unicode.Scalar.init).map(Character.init)
        }
        return named[name]
    }
}
