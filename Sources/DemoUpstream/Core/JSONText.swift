/// An ordered JSON value for writing wire-format bodies: keys stay in the order given, so
/// each service's responses keep the field order of the recorded samples.
indirect enum JSONText: Sendable {
    case null
    case bool(Bool)
    case int(Int)
    /// A number written exactly as given (prices keep trailing zeros: `9.90`).
    case number(String)
    case string(String)
    case array([JSONText])
    case object([(String, JSONText)])

    /// Optional string: null when nil.
    static func string(_ value: String?) -> JSONText { value.map(JSONText.string) ?? .null }

    /// No whitespace at all (TMDB, Rakuten, Apple Music).
    var compact: String { String(decoding: compactBytes, as: UTF8.self) }

    /// `compact` as UTF-8 bytes, for response bodies.
    var compactBytes: [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(256)
        write(to: &out, indent: nil, level: 0)
        return out
    }

    /// One member per line, `indent` spaces per level, `"key": value` (YouTube style).
    func pretty(indent: Int = 2) -> String { String(decoding: prettyBytes(indent: indent), as: UTF8.self) }

    /// `pretty(indent:)` as UTF-8 bytes, for response bodies.
    func prettyBytes(indent: Int = 2) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(1024)
        write(to: &out, indent: indent, level: 0)
        return out
    }

    /// iTunes Search style for one record: `{"a":1, "b":"x"}` with `", "` between members and
    /// a line break before `"previewUrl"`, as in the byte-exact recorded responses.
    var iTunesRecord: String {
        var out: [UInt8] = []
        writeITunesRecord(to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends `iTunesRecord`'s bytes to `out`.
    func writeITunesRecord(to out: inout [UInt8]) {
        guard case .object(let members) = self else { return write(to: &out, indent: nil, level: 0) }
        out.append(UInt8(ascii: "{"))
        for (i, member) in members.enumerated() {
            if i > 0 { out.append(contentsOf: member.0 == "previewUrl" ? Self.commaNewline : Self.commaSpace) }
            Self.writeString(member.0, to: &out)
            out.append(UInt8(ascii: ":"))
            member.1.write(to: &out, indent: nil, level: 0)
        }
        out.append(UInt8(ascii: "}"))
    }

    private static let commaNewline: [UInt8] = Array(", \n".utf8)
    private static let commaSpace: [UInt8] = Array(", ".utf8)
    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    // Bodies are built as bytes: appending to a String scalar by scalar made writing the
    // 213-track iTunes lookup of the nested demo query take ~30 ms.
    private func write(to out: inout [UInt8], indent: Int?, level: Int) {
        switch self {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let b): out.append(contentsOf: (b ? "true" : "false").utf8)
        case .int(let i): out.append(contentsOf: String(i).utf8)
        case .number(let text): out.append(contentsOf: text.utf8)
        case .string(let s): Self.writeString(s, to: &out)
        case .array(let items):
            guard !items.isEmpty else { return out.append(contentsOf: "[]".utf8) }
            out.append(UInt8(ascii: "["))
            for (i, item) in items.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                Self.newline(&out, indent, level + 1)
                item.write(to: &out, indent: indent, level: level + 1)
            }
            Self.newline(&out, indent, level)
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            guard !members.isEmpty else { return out.append(contentsOf: "{}".utf8) }
            out.append(UInt8(ascii: "{"))
            for (i, member) in members.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                Self.newline(&out, indent, level + 1)
                Self.writeString(member.0, to: &out)
                out.append(UInt8(ascii: ":"))
                if indent != nil { out.append(UInt8(ascii: " ")) }
                member.1.write(to: &out, indent: indent, level: level + 1)
            }
            Self.newline(&out, indent, level)
            out.append(UInt8(ascii: "}"))
        }
    }

    private static func newline(_ out: inout [UInt8], _ indent: Int?, _ level: Int) {
        guard let indent else { return }
        out.append(UInt8(ascii: "\n"))
        out.append(contentsOf: repeatElement(UInt8(ascii: " "), count: indent * level))
    }

    /// JSON string with the mandatory escapes; non-ASCII stays raw UTF-8, `/` unescaped.
    static func writeString(_ s: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        var s = s
        s.withUTF8 { bytes in
            // Runs of bytes that need no escape are copied at once.
            var runStart = 0
            for (i, byte) in bytes.enumerated() {
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<i]))
                runStart = i + 1
                switch byte {
                case UInt8(ascii: "\""): out.append(contentsOf: #"\""#.utf8)
                case UInt8(ascii: "\\"): out.append(contentsOf: #"\\"#.utf8)
                case UInt8(ascii: "\n"): out.append(contentsOf: #"\n"#.utf8)
                case UInt8(ascii: "\r"): out.append(contentsOf: #"\r"#.utf8)
                case UInt8(ascii: "\t"): out.append(contentsOf: #"\t"#.utf8)
                case 0x08: out.append(contentsOf: #"\b"#.utf8)
                case 0x0C: out.append(contentsOf: #"\f"#.utf8)
                default:
                    out.append(contentsOf: #"\u00"#.utf8)
                    out.append(hexDigits[Int(byte >> 4)])
                    out.append(hexDigits[Int(byte & 0xF)])
                }
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart...]))
        }
        out.append(UInt8(ascii: "\""))
    }
}
