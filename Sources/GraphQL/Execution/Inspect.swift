/// How graphql-js's `inspect()` shows a value inside an error message: strings in double
/// quotes (JSON-escaped), numbers as JavaScript prints them, `{ a: 1 }`, `[1, 2]`,
/// `null`; nested structures deeper than two levels as `[Object]` / `[Array]`, like
/// graphql-js (`MAX_RECURSIVE_DEPTH = 2`), and lists past ten items as `... N more items`.
func inspect(_ value: JSONValue) -> String {
    inspect(value, depth: 0)
}

private func inspect(_ value: JSONValue, depth: Int) -> String {
    switch value {
    case .null: return "null"
    case .bool(let b): return b ? "true" : "false"
    case .int(let i): return String(i)
    case .double(let d): return JSNumber.string(d)
    case .string(let s): return JSONWriter.string(.string(s))
    case .array(let items):
        if items.isEmpty { return "[]" }
        if depth >= 2 { return "[Array]" }
        var parts = items.prefix(10).map { inspect($0, depth: depth + 1) }
        if items.count > 10 {
            let more = items.count - 10
            parts.append("... \(more) more \(more == 1 ? "item" : "items")")
        }
        return "[" + parts.joined(separator: ", ") + "]"
    case .object(let object):
        if object.count == 0 { return "{}" }
        if depth >= 2 { return "[Object]" }
        let parts = object.entries.map { "\($0.key): \(inspect($0.value, depth: depth + 1))" }
        return "{ " + parts.joined(separator: ", ") + " }"
    }
}
