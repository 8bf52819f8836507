import Foundation
import GraphQL
import UpstreamEconomy

/// An upstream a schema declares with `@upstream` on its `schema` definition: where it is, what
/// every call to it carries (query entries and headers, secrets from the environment), what a
/// call costs and how many units a day it may spend. The economy keys it by `service`.
struct DeclaredUpstream: Sendable {
    let service: UpstreamService
    /// `scheme://host[:port][/path]`, no trailing slash; never a template.
    let baseURL: String
    let query: [(name: String, value: ConnectorTemplate)]
    let headers: [(name: String, value: ConnectorTemplate)]
    /// The price of each call, paid from the request's budget and the upstream's daily quota.
    let unitsPerCall: Int
    let dailyUnits: Int?
    let timeoutMs: Int?
    /// How long an answer stays fresh when the upstream sends no `Cache-Control: max-age`.
    let maxAgeSeconds: Int
    /// `{$env.NAME}` values this upstream needs that the environment does not have: its fields
    /// answer `UPSTREAM_NOT_CONFIGURED` and nothing is sent.
    let missingEnvironment: [String]

    /// Seconds an answer stays fresh without a `max-age`, when `@upstream` gives none.
    static let defaultMaxAgeSeconds = 300
}

/// A field answered by one upstream call: `@http` on a field definition.
struct HTTPConnector: Sendable {
    /// The field's coordinate, `Type.field`: its loader's name and its spans'.
    let coordinate: String
    /// Which of the schema's connectors: the slot of its loader in a request.
    let index: Int
    let upstream: DeclaredUpstream
    /// Starts with `/`; each hole fills exactly one segment.
    let path: ConnectorTemplate
    let query: [(name: String, value: ConnectorTemplate)]
    /// Where the answer sits in the response body; empty: the body.
    let select: JSONPath
    let batch: Batch?
    let nullOn404: Bool
    /// Whether the field returns a list (a batch entry's parent then gets every matching entry).
    let returnsList: Bool
    /// The Swift decoder that makes the answer, instead of `select` and the JSON as it is.
    let transform: ConnectorTransform?
    /// With `@http(pageSize:)`, the field's `@listSize` slicing argument: the list is cut to
    /// its value, which must lie in `range` (1…`pageSize`).
    let slicing: Slicing?

    struct Slicing: Sendable {
        let argument: String
        let range: ClosedRange<Int>
        /// The argument's default in the schema: the cut when a query gives it `null`.
        let defaultValue: Int?
    }

    /// `@http(batch:)`: the values of up to `max` parents' `param` entries go in one request,
    /// joined by `join` (or as repeated parameters when `join` is empty), and each entry of the
    /// selected list answers the parent whose value its `key` member has.
    struct Batch: Sendable {
        let param: String
        let join: String
        let max: Int
        let key: JSONPath
    }
}

/// One problem with a schema's declarations, where it is.
public struct DeclarationProblem: Sendable, Equatable, CustomStringConvertible {
    public let message: String
    /// `FILE:LINE:COLUMN`, or the coordinate when the schema was built without its source.
    public let location: String

    public var description: String { "\(location): \(message)" }
}

/// Every problem `ConnectorSchema.read` found.
struct DeclarationProblems: Error {
    let problems: [DeclarationProblem]
}

/// The upstreams and connectors a schema declares (`@upstream`, `@http`, `@from`), checked
/// against the schema: built once at start-up, read by the resolvers, the cost model and the
/// economy. A schema without declarations has an empty one.
public struct ConnectorSchema: Sendable {
    var upstreams: [String: DeclaredUpstream] = [:]
    /// By coordinate, `Type.field`.
    var connectors: [String: HTTPConnector] = [:]
    /// `@http` on one of the gateway's own object types, by type name: how `node` reads one
    /// object of it by its upstream id (`{$args.id}`), as Apollo's entity connectors do.
    var lookups: [String: HTTPConnector] = [:]
    /// `@from(path:)` by coordinate.
    var fromPaths: [String: JSONPath] = [:]
    /// Object types whose values are JSON from an upstream (not one of the gateway's own types).
    var declaredTypes: Set<String> = []
    /// The values of the `{$env.NAME}` the upstreams name: secrets, masked everywhere.
    var environment: [String: String] = [:]
    /// Every non-empty value of `environment`, placeholders included: what a call scrubs from
    /// what it reports, as the providers do. Set once, after the upstreams are read.
    private(set) var scrubbed: [String] = []

    /// The literal segments of the paths `service`'s connectors declare: what traces keep of
    /// their paths (a segment a template fills is an id or a user's string).
    func pathWords(of service: UpstreamService) -> Set<Substring> {
        var words: Set<Substring> = []
        for connector in connectors.values where connector.upstream.service == service {
            var literal = ""
            for part in connector.path.parts {
                if case .literal(let text) = part {
                    literal += text
                } else {
                    literal += "\u{0}"  // a hole: its segment is not a word
                }
            }
            for segment in literal.split(separator: "/") where !segment.contains("\u{0}") { words.insert(segment) }
        }
        return words
    }

    /// Whether any field or type is answered by a declared call.
    var hasCalls: Bool { !connectors.isEmpty || !lookups.isEmpty }

    /// The secret values: what must never be written, logged or answered.
    /// (`--demo` and `--replay` set the placeholder keys, which are no secrets.)
    var secrets: [String] {
        environment.values.filter { !$0.isEmpty && !GatewayConfiguration.placeholderKeys.contains($0) }.sorted()
    }

    static let directiveNames: Set<String> = ["upstream", "http", "from"]

    /// Whether `schema` uses `@upstream`, `@http` or `@from` anywhere.
    public static func declaresConnectors(_ schema: Schema) -> Bool {
        if schema.schemaDirectives.contains(where: { directiveNames.contains($0.name.value) }) { return true }
        return schema.types.values.contains { type in
            guard case .object(let object) = type else { return false }
            return object.directives.contains { directiveNames.contains($0.name.value) }
                || object.fields.contains { $0.directives.contains { directiveNames.contains($0.name.value) } }
        }
    }

    /// Reads and checks the declarations of `schema` (`source`: its text, for locations).
    /// `isBound` says whether a field of one of the gateway's own types is resolved in Swift or
    /// read as a property of its model.
    /// - Returns: the declarations, or every problem found (unknown upstreams, arguments or
    ///   parent fields, templates in a base URL's scheme, host or port, a batch without its
    ///   key, fields nothing answers), sorted by location.
    /// `configuredBaseURLs`: the base URLs the gateway's configuration sets for built-in
    /// upstreams (`--upstream`, `MUSICGRAPH_<NAME>_URL`), which win over a declared one.
    static func read(
        schema: Schema, source: Source?, environment: [String: String], configuredBaseURLs: [String: String] = [:],
        ownTypes: Set<String>, isBound: (_ type: String, _ field: String) -> Bool
    ) -> Result<ConnectorSchema, DeclarationProblems> {
        var reader = DeclarationReader(
            schema: schema, source: source, environment: environment, configuredBaseURLs: configuredBaseURLs)
        reader.readUpstreams()
        reader.declarations.scrubbed = reader.declarations.environment.values.filter { !$0.isEmpty }.sorted()
        reader.readFields(ownTypes: ownTypes, isBound: isBound)
        guard reader.problems.isEmpty else {
            let sorted = reader.problems.sorted { ($0.offset, $0.problem.message) < ($1.offset, $1.problem.message) }
            return .failure(DeclarationProblems(problems: sorted.map(\.problem)))
        }
        return .success(reader.declarations)
    }
}

/// The checks of `ConnectorSchema.read`, gathering every problem.
private struct DeclarationReader {
    let schema: Schema
    let source: Source?
    let environment: [String: String]
    let configuredBaseURLs: [String: String]
    var declarations = ConnectorSchema()
    /// Upstreams declared with a problem of their own: fields naming them are not reported again.
    var refusedUpstreams: Set<String> = []
    var problems: [(offset: Int, problem: DeclarationProblem)] = []

    init(schema: Schema, source: Source?, environment: [String: String], configuredBaseURLs: [String: String]) {
        self.schema = schema
        self.source = source
        self.environment = environment
        self.configuredBaseURLs = configuredBaseURLs
    }

    mutating func problem(_ message: String, at loc: Location, _ coordinate: String) {
        let location: String
        if let source, loc.start >= 0 {
            let at = source.location(of: loc.start)
            location = "\(source.name):\(at.line):\(at.column)"
        } else {
            location = coordinate
        }
        problems.append((loc.start, DeclarationProblem(message: message, location: location)))
    }

    // MARK: @upstream

    mutating func readUpstreams() {
        for directive in schema.schemaDirectives where directive.name.value == "upstream" {
            guard let name = string(directive, "name"), !name.isEmpty else {
                problem("@upstream needs a name", at: directive.loc, "schema")
                continue
            }
            let here = "@upstream(name: \"\(name)\")"
            if declarations.upstreams[name] != nil {
                problem("\(here) is declared twice", at: directive.loc, "schema")
                continue
            }
            // A built-in upstream's name declares that API: it keeps its traits (quota day,
            // prices) and the base URL the configuration gives it.
            let builtIn = UpstreamService(builtIn: name)
            guard var baseURL = checkedBaseURL(directive, here) else {
                refusedUpstreams.insert(name)
                continue
            }
            if builtIn != nil, var configured = configuredBaseURLs[name] {
                while configured.hasSuffix("/") { configured.removeLast() }
                baseURL = configured
            }
            let query = templates(directive, "query", here, allowEnvironment: true, field: nil)
            let headers = templates(directive, "headers", here, allowEnvironment: true, field: nil)
            var missing: [String] = []
            for (_, template) in query + headers {
                for name in template.environmentNames {
                    if let value = environment[name], !value.isEmpty {
                        declarations.environment[name] = value
                    } else if !missing.contains(name) {
                        missing.append(name)
                    }
                }
            }
            let units = nonNegative(directive, "unitsPerCall", here) ?? 1
            declarations.upstreams[name] = DeclaredUpstream(
                service: builtIn ?? UpstreamService(rawValue: name), baseURL: baseURL, query: query, headers: headers,
                unitsPerCall: units, dailyUnits: nonNegative(directive, "dailyUnits", here),
                timeoutMs: nonNegative(directive, "timeoutMs", here),
                maxAgeSeconds: nonNegative(directive, "maxAgeSeconds", here) ?? DeclaredUpstream.defaultMaxAgeSeconds,
                missingEnvironment: missing)
        }
    }

    /// The base URL without a trailing slash; nil (and a problem) when it is not a fixed
    /// http(s) URL: a template in its scheme, host or port could send a query anywhere.
    mutating func checkedBaseURL(_ directive: Directive, _ here: String) -> String? {
        guard let (text, loc) = stringWithLoc(directive, "baseURL") else {
            problem("\(here) needs a baseURL", at: directive.loc, "schema")
            return nil
        }
        if text.contains("{") || text.contains("}") {
            problem(
                "\(here): baseURL '\(text)' has a template; the scheme, host and port of an upstream are fixed",
                at: loc, "schema")
            return nil
        }
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
            scheme == "http" || scheme == "https", let host = components.host, !host.isEmpty,
            components.query == nil, components.fragment == nil
        else {
            problem("\(here): baseURL '\(text)' is not an http(s) URL without query", at: loc, "schema")
            return nil
        }
        return text.hasSuffix("/") ? String(text.dropLast()) : text
    }

    // MARK: @http and @from

    mutating func readFields(ownTypes: Set<String>, isBound: (String, String) -> Bool) {
        // Types first: which object types hold JSON (the connectors' own types).
        for name in schema.typeNames where !name.hasPrefix("__") && !ownTypes.contains(name) {
            if case .object = schema.types[name] { declarations.declaredTypes.insert(name) }
        }
        for name in schema.typeNames where !name.hasPrefix("__") {
            guard case .object(let object) = schema.types[name] else { continue }
            let declaredType = declarations.declaredTypes.contains(name)
            if let http = object.directives.first(where: { $0.name.value == "http" }) {
                readLookup(http, of: object, declaredType: declaredType)
            }
            for field in object.fields {
                let coordinate = "\(name).\(field.name)"
                let http = field.directives.first { $0.name.value == "http" }
                if let from = field.directives.first(where: { $0.name.value == "from" }) {
                    readFrom(from, field, coordinate, declaredType: declaredType)
                }
                if let http {
                    readHTTP(http, field, on: name, coordinate)
                } else if !declaredType && !isBound(name, field.name) {
                    problem(
                        "\(coordinate) has no resolver: declare it with @http, or resolve it in Swift",
                        at: field.loc, coordinate)
                }
            }
        }
    }

    mutating func readFrom(
        _ directive: Directive, _ field: FieldDefinitionModel, _ coordinate: String, declaredType: Bool
    ) {
        guard declaredType else {
            problem(
                "@from on \(coordinate): \(coordinate.prefix { $0 != "." }) is one of the gateway's own types, not JSON",
                at: directive.loc, coordinate)
            return
        }
        guard let path = string(directive, "path"), !path.isEmpty else {
            problem("@from on \(coordinate) needs a non-empty path", at: directive.loc, coordinate)
            return
        }
        declarations.fromPaths[coordinate] = JSONPath(dotted: path)
    }

    /// `@http` on an object type: the read of one object by its upstream id, `{$args.id}`.
    mutating func readLookup(_ directive: Directive, of object: ObjectType, declaredType: Bool) {
        let here = "@http on type \(object.name)"
        guard !declaredType else {
            problem(
                "\(here): only the gateway's own types have global ids for `node` to read; \(object.name) is declared JSON",
                at: directive.loc, object.name)
            return
        }
        guard GlobalID.Kind.allCases.contains(where: { $0.typeName == object.name }) else {
            problem(
                "\(here): `node` reads only types global ids name (\(GlobalID.Kind.allCases.map(\.typeName).joined(separator: ", ")))",
                at: directive.loc, object.name)
            return
        }
        if argument(directive, "batch") != nil {
            problem(
                "\(here): a lookup reads one object; it has no batch", at: argumentLoc(directive, "batch"), object.name)
        }
        if let name = string(directive, "upstream"), UpstreamService(builtIn: name) == nil {
            problem(
                "\(here): global ids name only the built-in upstreams, so `node` never reads one of '\(name)'",
                at: argumentLoc(directive, "upstream"), object.name)
        }
        // The lookup reads like a field `node(id: ID!)` of the type, without a parent.
        let lookupField = FieldDefinitionModel(
            name: "node", arguments: [InputValueModel(name: "id", type: .nonNull(.named("ID")))],
            type: .named(object.name))
        guard let connector = connector(directive, lookupField, on: "", coordinate: object.name, here: here) else {
            return
        }
        declarations.lookups[object.name] = connector
    }

    mutating func readHTTP(
        _ directive: Directive, _ field: FieldDefinitionModel, on typeName: String, _ coordinate: String
    ) {
        let here = "@http on \(coordinate)"
        guard let connector = connector(directive, field, on: typeName, coordinate: coordinate, here: here) else {
            return
        }
        declarations.connectors[coordinate] = connector
    }

    /// The connector `directive` declares for `field` of `typeName` (empty for a lookup).
    mutating func connector(
        _ directive: Directive, _ field: FieldDefinitionModel, on typeName: String, coordinate: String, here: String
    ) -> HTTPConnector? {
        var transform: ConnectorTransform?
        if let (name, loc) = stringWithLoc(directive, "transform") {
            transform = ConnectorTransform.named[name]
            if transform == nil {
                problem(
                    "\(here) names transform '\(name)', which the gateway does not have (it has \(ConnectorTransform.named.keys.sorted().joined(separator: ", ")))",
                    at: loc, coordinate)
            }
        }
        let returnsList = { if case .list = field.type.nullable { true } else { false } }()
        if let transform {
            if transform.returns != field.type.namedType || transform.isList != returnsList {
                problem(
                    "\(here): transform '\(transform.name)' makes \(transform.isList ? "[\(transform.returns)]" : transform.returns), not the field's \(field.type)",
                    at: argumentLoc(directive, "transform"), coordinate)
            }
            for ignored in ["select", "nullOn404"] where argument(directive, ignored) != nil {
                problem(
                    "\(here): a transform reads the whole answer; \(ignored) does not apply with it",
                    at: argumentLoc(directive, ignored), coordinate)
            }
        }
        let returned = field.type.namedType
        if case .object = schema.types[returned], !declarations.declaredTypes.contains(returned),
            argument(directive, "transform") == nil
        {
            problem(
                "\(here) returns \(returned), one of the gateway's own types; a connector answers JSON, so it returns a type the schema declares (or names a transform that makes \(returned))",
                at: directive.loc, coordinate)
        }
        guard let upstreamName = string(directive, "upstream") else {
            problem("\(here) needs an upstream", at: directive.loc, coordinate)
            return nil
        }
        let upstream = declarations.upstreams[upstreamName]
        if upstream == nil && !refusedUpstreams.contains(upstreamName) {
            problem(
                "\(here) names upstream '\(upstreamName)', which no @upstream declares",
                at: argumentLoc(directive, "upstream"),
                coordinate)
        }
        var path = ConnectorTemplate(parts: [])
        if let (text, loc) = stringWithLoc(directive, "path") {
            if !text.hasPrefix("/") {
                problem("\(here): path '\(text)' does not start with '/'", at: loc, coordinate)
            } else if text.contains("?") || text.contains("#") {
                problem("\(here): path '\(text)' has a '?' or '#'; put parameters in query", at: loc, coordinate)
            } else if let template = template(text, loc, here, allowEnvironment: false, field: field, on: typeName) {
                path = template
            }
        } else {
            problem("\(here) needs a path", at: directive.loc, coordinate)
        }
        let query = templates(directive, "query", here, allowEnvironment: false, field: field, on: typeName)
        var batch: HTTPConnector.Batch?
        if let (value, loc) = argument(directive, "batch") {
            batch = readBatch(value, loc, here, query: query, onRoot: typeName == schema.queryType)
            if transform != nil {
                problem("\(here): a transform reads one answer; it cannot be batched", at: loc, coordinate)
            }
        }
        let slicing = readSlicing(directive, field, here, coordinate)
        guard let upstream else { return nil }
        return HTTPConnector(
            coordinate: coordinate, index: declarations.connectors.count + declarations.lookups.count,
            upstream: upstream, path: path, query: query, select: JSONPath(dotted: string(directive, "select") ?? ""),
            batch: batch, nullOn404: bool(directive, "nullOn404") ?? false,
            returnsList: returnsList, transform: transform,
            slicing: slicing)
    }

    /// With `pageSize`, the field's first `@listSize` slicing argument, which may take 1…pageSize.
    mutating func readSlicing(
        _ directive: Directive, _ field: FieldDefinitionModel, _ here: String, _ coordinate: String
    )
        -> HTTPConnector.Slicing?
    {
        guard let (value, loc) = argument(directive, "pageSize") else { return nil }
        guard case .int(let literal) = value, let pageSize = Int(literal.value), pageSize >= 1 else {
            problem("\(here): pageSize must be at least 1", at: loc, coordinate)
            return nil
        }
        guard let listSize = field.directives.first(where: { $0.name.value == "listSize" }),
            let slicing = listSize.arguments.first(where: { $0.name.value == "slicingArguments" }),
            case .list(let names) = slicing.value
        else {
            problem(
                "\(here): pageSize bounds a slicing argument, and the field has no @listSize(slicingArguments:)",
                at: loc, coordinate)
            return nil
        }
        for case .string(let name) in names.values {
            guard let argument = field.argument(name.value) else { continue }
            let defaultValue: Int? =
                if case .int(let literal)? = argument.defaultValue { Int(literal.value) } else { nil }
            return HTTPConnector.Slicing(argument: name.value, range: 1...pageSize, defaultValue: defaultValue)
        }
        problem(
            "\(here): pageSize bounds a slicing argument, and none of the field's is one of its arguments", at: loc,
            coordinate)
        return nil
    }

    mutating func readBatch(
        _ value: Value, _ loc: Location, _ here: String, query: [(name: String, value: ConnectorTemplate)], onRoot: Bool
    ) -> HTTPConnector.Batch? {
        guard case .object(let object) = value else {
            problem("\(here): batch is not an object", at: loc, here)
            return nil
        }
        func member(_ name: String) -> Value? { object.fields.first { $0.name.value == name }?.value }
        var ok = true
        let param: String? = if case .string(let s)? = member("param") { s.value } else { nil }
        let key: String? = if case .string(let s)? = member("key") { s.value } else { nil }
        let max: Int? = if case .int(let n)? = member("max") { Int(n.value) } else { nil }
        let join: String = if case .string(let s)? = member("join") { s.value } else { "," }
        if key == nil || key?.isEmpty == true {
            problem("\(here): batch has no key (the member of each entry that names its parent)", at: loc, here)
            ok = false
        }
        if let param {
            if !query.contains(where: { $0.name == param }) {
                problem("\(here): batch param '\(param)' is not one of the query entries", at: loc, here)
                ok = false
            }
        } else {
            problem("\(here): batch has no param", at: loc, here)
            ok = false
        }
        if max == nil || max! < 1 {
            problem("\(here): batch max must be at least 1", at: loc, here)
            ok = false
        }
        if onRoot {
            problem("\(here): a root field has no parents to batch", at: loc, here)
            ok = false
        }
        guard ok, let param, let key, let max else { return nil }
        return HTTPConnector.Batch(param: param, join: join, max: max, key: JSONPath(dotted: key))
    }

    // MARK: Templates

    mutating func templates(
        _ directive: Directive, _ name: String, _ here: String, allowEnvironment: Bool, field: FieldDefinitionModel?,
        on typeName: String = ""
    ) -> [(name: String, value: ConnectorTemplate)] {
        guard let (value, loc) = argument(directive, name) else { return [] }
        let items: [Value] = if case .list(let list) = value { list.values } else { [value] }
        var out: [(name: String, value: ConnectorTemplate)] = []
        for item in items {
            guard case .object(let object) = item,
                case .string(let key)? = object.fields.first(where: { $0.name.value == "name" })?.value,
                case .string(let text)? = object.fields.first(where: { $0.name.value == "value" })?.value
            else {
                problem("\(here): each \(name) entry needs a name and a value", at: loc, here)
                continue
            }
            if let template = template(
                text.value, text.loc, here, allowEnvironment: allowEnvironment, field: field, on: typeName)
            {
                out.append((key.value, template))
            }
        }
        return out
    }

    mutating func template(
        _ text: String, _ loc: Location, _ here: String, allowEnvironment: Bool, field: FieldDefinitionModel?,
        on typeName: String
    ) -> ConnectorTemplate? {
        let template: ConnectorTemplate
        do throws(ConnectorTemplate.SyntaxError) {
            template = try ConnectorTemplate(parsing: text)
        } catch {
            problem("\(here): \(error.message)", at: loc, here)
            return nil
        }
        var ok = true
        for part in template.parts {
            switch part {
            case .literal: break
            case .environment(let name):
                if !allowEnvironment {
                    problem(
                        "\(here): {$env.\(name)} is allowed only in an @upstream's query and headers (a secret stays there)",
                        at: loc, here)
                    ok = false
                }
            case .argument(let name):
                guard let field else {
                    problem("\(here): {$args.\(name)} has no field to read it from", at: loc, here)
                    ok = false
                    break
                }
                if field.argument(name) == nil {
                    problem("\(here): {$args.\(name)} names an argument \(field.name) does not have", at: loc, here)
                    ok = false
                }
            case .parent(let path):
                guard field != nil, !typeName.isEmpty, typeName != schema.queryType else {
                    problem("\(here): {$parent.\(path.joined(separator: "."))} has no parent here", at: loc, here)
                    ok = false
                    break
                }
                if schema.types[typeName]?.field(path[0]) == nil {
                    problem(
                        "\(here): {$parent.\(path.joined(separator: "."))} names a field \(typeName) does not have",
                        at: loc, here)
                    ok = false
                }
            }
        }
        return ok ? template : nil
    }

    // MARK: Directive arguments

    func argument(_ directive: Directive, _ name: String) -> (Value, Location)? {
        directive.arguments.first { $0.name.value == name }.map { ($0.value, $0.value.loc) }
    }

    func argumentLoc(_ directive: Directive, _ name: String) -> Location {
        argument(directive, name)?.1 ?? directive.loc
    }

    func string(_ directive: Directive, _ name: String) -> String? { stringWithLoc(directive, name)?.0 }

    func stringWithLoc(_ directive: Directive, _ name: String) -> (String, Location)? {
        if case .string(let literal)? = argument(directive, name)?.0 { return (literal.value, literal.loc) }
        return nil
    }

    func bool(_ directive: Directive, _ name: String) -> Bool? {
        if case .boolean(let literal)? = argument(directive, name)?.0 { return literal.value }
        return nil
    }

    mutating func nonNegative(_ directive: Directive, _ name: String, _ here: String) -> Int? {
        guard let (value, loc) = argument(directive, name), case .int(let literal) = value,
            let n = Int(literal.value)
        else { return nil }
        guard n >= 0 else {
            problem("\(here): \(name) is negative (\(n))", at: loc, here)
            return nil
        }
        return n
    }
}
