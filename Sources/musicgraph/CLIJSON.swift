import GraphQL

// Tiny JSON output for the CLI's own messages (error lists). Responses with `data` go
// through the engine's JSON writer; this only has to be correct, not fast.

/// `text` as a JSON string literal (RFC 8259 §7): `"` and `\` escaped, control characters
/// below U+0020 as `\n`, `\t`, … or `\u00XX`; everything else, non-ASCII included, as is.
func jsonQuoted(_ text: String) -> String {
    var out = String.UnicodeScalarView()
    out.append("\"")
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\"": out.append(contentsOf: #"\""#.unicodeScalars)
        case "\\": out.append(contentsOf: #"\\"#.unicodeScalars)
        case "\n": out.append(contentsOf: #"\n"#.unicodeScalars)
        case "\r": out.append(contentsOf: #"\r"#.unicodeScalars)
        case "\t": out.append(contentsOf: #"\t"#.unicodeScalars)
        case "\u{08}": out.append(contentsOf: #"\b"#.unicodeScalars)
        case "\u{0C}": out.append(contentsOf: #"\f"#.unicodeScalars)
        case "\u{00}"..."\u{1F}":
            let hex = String(scalar.value, radix: 16)
            out.append(contentsOf: ("\\u" + String(repeating: "0", count: 4 - hex.count) + hex).unicodeScalars)
        default: out.append(scalar)
        }
    }
    out.append("\"")
    return String(out)
}

/// A JSON value in compact form; object keys keep their order.
func jsonText(_ value: JSONValue) -> String {
    switch value {
    case .null: return "null"
    case .bool(let b): return b ? "true" : "false"
    case .int(let i): return String(i)
    case .double(let d): return d.isFinite ? "\(d)" : "null"
    case .string(let s): return jsonQuoted(s)
    case .array(let items): return "[" + items.map(jsonText).joined(separator: ",") + "]"
    case .object(let object):
        return "{" + object.entries.map { jsonQuoted($0.key) + ":" + jsonText($0.value) }.joined(separator: ",") + "}"
    }
}

/// One error in the spec §7.1.2 shape: `message`, then `locations`, `path` and
/// `extensions` when present.
func jsonText(_ error: GraphQLError) -> String {
    var out = "{\"message\":" + jsonQuoted(error.message)
    if !error.locations.isEmpty {
        out += ",\"locations\":["
        out += error.locations.map { "{\"line\":\($0.line),\"column\":\($0.column)}" }.joined(separator: ",")
        out += "]"
    }
    if let path = error.path {
        out += ",\"path\":["
        out += path.map { component in
            switch component {
            case .key(let key): jsonQuoted(key)
            case .index(let index): String(index)
            }
        }.joined(separator: ",")
        out += "]"
    }
    if error.extensions.count > 0 { out += ",\"extensions\":" + jsonText(.object(error.extensions)) }
    return out + "}"
}

/// `{"errors":[…]}`, the CLI's answer for request errors (syntax, validation, …).
func errorsJSON(_ errors: [GraphQLError]) -> String {
    "{\"errors\":[" + errors.map(jsonText).joined(separator: ",") + "]}"
}
