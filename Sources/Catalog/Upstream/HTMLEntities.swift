/// Decoding of the HTML character references YouTube puts into search-result titles and
/// descriptions (`&amp;`, `&#39;`, `&quot;`; API-FACTS §4 "Text quirks").
enum HTMLEntities {
    private static let named: [Substring: Character] = [
        "amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": "\u{00A0}",
    ]

    /// `text` with named references from a small table and all numeric references
    /// (`&#NNN;`, `&#xHH;`) decoded; anything unrecognised is left as it is.
    static func decode(_ text: String) -> String {
        guard text.contains("&") else { return text }
        var out = ""
        var rest = Substring(text)
        while let amp = rest.firstIndex(of: "&") {
            out += rest[..<amp]
            let afterAmp = rest.index(after: amp)
            // References are short; a `;` further away means a literal `&`.
            guard let semi = rest[afterAmp...].prefix(12).firstIndex(of: ";"),
                let character = character(for: rest[afterAmp..<semi])
            else {
                out.append("&")
                rest = rest[afterAmp...]
                continue
            }
            out.append(character)
            rest = rest[rest.index(after: semi)...]
        }
        out += rest
        return out
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
