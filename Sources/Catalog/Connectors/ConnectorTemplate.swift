import Foundation
import GraphQL

/// A connector value with `{$args.NAME}`, `{$parent.PATH}` and `{$env.NAME}` holes, as an
/// `@upstream` or `@http` argument declares it (`"/release/{$args.id}"`). Literal text is
/// sent as written; a hole's value is percent-encoded where it is placed (`ConnectorRequest`),
/// so a user string fills one path segment or one query value and never changes the URL's shape.
struct ConnectorTemplate: Sendable, Equatable {
    enum Part: Sendable, Equatable {
        case literal(String)
        /// The field's argument `name`.
        case argument(String)
        /// A value of the parent object: a JSON member path, or one of our types' fields (its
        /// `id`: the upstream's own id).
        case parent([String])
        /// An environment variable, read once at start-up: a secret.
        case environment(String)
    }

    var parts: [Part]

    init(parts: [Part]) { self.parts = parts }

    var environmentNames: [String] {
        parts.compactMap { if case .environment(let name) = $0 { name } else { nil } }
    }

    /// Parses `text`.
    /// - Throws: `ConnectorTemplate.SyntaxError` for an unclosed `{`, an empty hole, or a hole
    ///   that is not `$args.`, `$parent.` or `$env.` followed by a name.
    init(parsing text: String) throws(SyntaxError) {
        var parts: [Part] = []
        var literal = ""
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "{") {
            literal += rest[..<open]
            guard let close = rest[open...].firstIndex(of: "}") else {
                throw SyntaxError("'\(text)' has a '{' without its '}'")
            }
            let hole = String(rest[rest.index(after: open)..<close]).trimmingCharacters(in: .whitespaces)
            if !literal.isEmpty { parts.append(.literal(literal)) }
            literal = ""
            parts.append(try Self.part(hole, in: text))
            rest = rest[rest.index(after: close)...]
        }
        literal += rest
        if !literal.isEmpty { parts.append(.literal(literal)) }
        self.parts = parts
    }

    private static func part(_ hole: String, in text: String) throws(SyntaxError) -> Part {
        let segments = hole.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard segments.count >= 2, segments.dropFirst().allSatisfy({ !$0.isEmpty }) else {
            throw SyntaxError("'{\(hole)}' in '\(text)' is not {$args.NAME}, {$parent.PATH} or {$env.NAME}")
        }
        switch segments[0] {
        case "$args" where segments.count == 2: return .argument(segments[1])
        case "$parent": return .parent(Array(segments.dropFirst()))
        case "$env" where segments.count == 2: return .environment(segments[1])
        default:
            throw SyntaxError("'{\(hole)}' in '\(text)' is not {$args.NAME}, {$parent.PATH} or {$env.NAME}")
        }
    }

    struct SyntaxError: Error, Sendable {
        let message: String
        init(_ message: String) { self.message = message }
    }
}

/// What a template's holes are filled from when a field resolves.
struct TemplateValues {
    let arguments: JSONObject
    let parent: FieldValue
    /// The environment variables the connectors name, read at start-up.
    let environment: [String: String]

    /// The text of `part`, or nil when it has no value (a null argument, a missing member).
    /// User strings come back in Unicode NFC, so two spellings of one name are one request.
    func text(of part: ConnectorTemplate.Part) -> String? {
        switch part {
        case .literal(let text): return text
        case .argument(let name): return arguments[name].flatMap(Self.text(of:))
        case .parent(let path): return Self.value(at: path, in: parent).flatMap(Self.text(of:))
        case .environment(let name): return environment[name]
        }
    }

    /// The value at `path` below `value`: JSON members (an array index as a number), or the
    /// fields of one of our own types (`PropertyReadable`).
    static func value(at path: [String], in value: FieldValue) -> JSONValue? {
        guard let first = path.first else {
            if case .json(let json) = value { return json }
            return nil
        }
        switch value {
        case .json(let json): return JSONPath(path).value(in: json)
        case .hostBox(let box):
            guard let readable = box.value as? any PropertyReadable else { return nil }
            return ownField(path, readable.property(first))
        case .object(let object):
            return ownField(path, object.property(first))
        case .list, .pending: return nil
        }
    }

    /// The value at `path` of one of the gateway's own objects, whose field `path[0]` is
    /// `field`. Its `id` is a global id (`tmdb:movie:550`), which no upstream knows: a
    /// template reads the upstream's own id in it (`550`).
    private static func ownField(_ path: [String], _ field: FieldValue) -> JSONValue? {
        if path.count == 1, path[0] == "id", case .json(.string(let text)) = field,
            let id = GlobalID.upstreamId(in: text)
        {
            return .string(id)
        }
        return value(at: Array(path.dropFirst()), in: field)
    }

    /// A scalar's text as it goes into a URL; nil for null, lists and objects.
    static func text(of value: JSONValue) -> String? {
        switch value {
        case .string(let text): return text.nfc
        case .int(let n): return String(n)
        case .double(let d): return d == d.rounded() && abs(d) < 1e15 ? String(Int(d)) : String(d)
        case .bool(let b): return b ? "true" : "false"
        case .null, .array, .object: return nil
        }
    }
}

/// A dotted path into a JSON value (`data.items`, `artist-credit.0.name`): object members by
/// name, array items by index. The empty path is the value itself.
struct JSONPath: Sendable, Equatable, CustomStringConvertible {
    var segments: [String]

    init(_ segments: [String]) { self.segments = segments }
    init(dotted text: String) {
        segments = text.isEmpty ? [] : text.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
    }

    var description: String { segments.joined(separator: ".") }

    /// The value at this path; nil when a member or an index is missing.
    func value(in json: JSONValue) -> JSONValue? {
        var current = json
        for segment in segments {
            switch current {
            case .object(let object):
                guard let next = object[segment] else { return nil }
                current = next
            case .array(let items):
                guard let index = Int(segment), items.indices.contains(index) else { return nil }
                current = items[index]
            default: return nil
            }
        }
        return current
    }
}
