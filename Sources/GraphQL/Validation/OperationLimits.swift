/// Static limits on the shape of an operation, checked after validation and before
/// execution (`checkOperationLimits`): how deep its fields nest, how many aliases and root
/// fields it has, how many directives one field carries, and whether it may introspect.
///
/// These are not spec rules (spec §5 accepts all of them); they bound the work one small
/// document can ask for, as Apollo Router's operation limits (`max_depth`, `max_aliases`,
/// `max_root_fields`) and GraphQL Armor's plugins (max-depth, max-aliases, max-directives) do.
/// A 68 KB document of 600 aliased `__schema` selections answered 9.8 MB before they existed.
/// Each limit is 0 to turn it off. Fragments count where they are spread, as execution
/// expands them (a fragment spread twice counts twice).
public struct OperationLimits: Sendable, Equatable {
    /// The deepest field nesting allowed: a root field is at depth 1, its subfields at 2.
    /// Default 15: GraphiQL's introspection query (graphql-js `getIntrospectionQuery`) is 12
    /// deep through its `ofType` chain, our deepest example 5; GraphQL Armor's 6 would refuse
    /// every schema-exploring tool.
    public var maxDepth: Int
    /// The most aliased fields an operation may have. Default 15, GraphQL Armor's: an alias
    /// is how one field is asked for many times in one response.
    public var maxAliases: Int
    /// The most root fields (each use counts, aliases included) an operation may select.
    /// Default 20, the value Apollo Router's documentation configures.
    public var maxRootFields: Int
    /// The most directives one field may carry. Default 10 (GraphQL Armor counts 50 per
    /// document; per field, 10 is more than the four executable directives we define).
    public var maxDirectives: Int
    /// Whether `__schema` and `__type` may be selected (`--no-introspection` turns it off for
    /// production; `__typename` stays allowed). On by default.
    public var introspection: Bool

    public static let defaultMaxDepth = 15
    public static let defaultMaxAliases = 15
    public static let defaultMaxRootFields = 20
    public static let defaultMaxDirectives = 10

    /// The server's defaults.
    public init(
        maxDepth: Int = OperationLimits.defaultMaxDepth, maxAliases: Int = OperationLimits.defaultMaxAliases,
        maxRootFields: Int = OperationLimits.defaultMaxRootFields,
        maxDirectives: Int = OperationLimits.defaultMaxDirectives, introspection: Bool = true
    ) {
        self.maxDepth = maxDepth
        self.maxAliases = maxAliases
        self.maxRootFields = maxRootFields
        self.maxDirectives = maxDirectives
        self.introspection = introspection
    }

    /// Every limit off and introspection allowed: what `checkOperationLimits` accepts anything under.
    public static let none = OperationLimits(
        maxDepth: 0, maxAliases: 0, maxRootFields: 0, maxDirectives: 0, introspection: true)

    /// One limit: its `extensions.code` (Apollo Router's names where it has the limit) and the
    /// name a report gives it (`extensions.limit`, the `validate` rule column).
    public enum Limit: String, Sendable, CaseIterable {
        case maxDepth = "MaxDepth"
        case maxAliases = "MaxAliases"
        case maxRootFields = "MaxRootFields"
        case maxDirectives = "MaxDirectives"
        case introspection = "NoIntrospection"

        /// `MAX_DEPTH_LIMIT`, `MAX_ALIASES_LIMIT`, `MAX_ROOT_FIELDS_LIMIT`,
        /// `MAX_DIRECTIVES_LIMIT`, `INTROSPECTION_DISABLED` (Apollo Server's code).
        public var code: String {
            switch self {
            case .maxDepth: "MAX_DEPTH_LIMIT"
            case .maxAliases: "MAX_ALIASES_LIMIT"
            case .maxRootFields: "MAX_ROOT_FIELDS_LIMIT"
            case .maxDirectives: "MAX_DIRECTIVES_LIMIT"
            case .introspection: "INTROSPECTION_DISABLED"
            }
        }
    }
}

/// Checks every operation of a validated `document` against `limits`.
///
/// - Parameters:
///   - document: a document that passed `validate` (fragments exist; a cycle or a missing
///     fragment is tolerated and counts nothing).
///   - source: the text it was parsed from, for error locations.
/// - Returns: one request error per limit broken per operation (`extensions`: `code` from
///   `OperationLimits.Limit.code`, `limit` its name, `maximum` and `actual` as counts), and one
///   `INTROSPECTION_DISABLED` error per `__schema`/`__type` field when introspection is off;
///   empty when everything is within limits. The work is linear in the document's size
///   (each fragment is measured once).
public func checkOperationLimits(document: Document, source: Source, limits: OperationLimits) -> [GraphQLError] {
    if limits == .none { return [] }
    var measure = OperationMeasure(document: document)
    var errors: [GraphQLError] = []
    func error(_ limit: OperationLimits.Limit, _ message: String, at: [Location], maximum: Int, actual: Int) {
        errors.append(
            GraphQLError(
                message, at: at, in: source,
                extensions: JSONObject([
                    ("code", .string(limit.code)), ("limit", .string(limit.rawValue)), ("maximum", .int(maximum)),
                    ("actual", .int(actual)),
                ])))
    }
    for case .operation(let operation) in document.definitions {
        let what = operation.name.map { "Operation \"\($0.value)\"" } ?? "The anonymous operation"
        let tally = measure.tally(operation.selectionSet)
        if limits.maxDepth > 0, tally.depth > limits.maxDepth {
            error(
                .maxDepth,
                "\(what) nests fields \(tally.depth) levels deep, over the limit of \(limits.maxDepth).",
                at: [tally.deepestField], maximum: limits.maxDepth, actual: tally.depth)
        }
        if limits.maxAliases > 0, tally.aliases > limits.maxAliases {
            error(
                .maxAliases, "\(what) has \(tally.aliases) aliases, over the limit of \(limits.maxAliases).",
                at: [operation.loc], maximum: limits.maxAliases, actual: tally.aliases)
        }
        let roots = measure.rootFields(operation.selectionSet)
        if limits.maxRootFields > 0, roots > limits.maxRootFields {
            error(
                .maxRootFields, "\(what) selects \(roots) root fields, over the limit of \(limits.maxRootFields).",
                at: [operation.loc], maximum: limits.maxRootFields, actual: roots)
        }
    }
    // Per field node, wherever it is written: a fragment's field is reported once.
    forEachField(in: document) { field in
        if limits.maxDirectives > 0, field.directives.count > limits.maxDirectives {
            error(
                .maxDirectives,
                "Field \"\(field.name.value)\" has \(field.directives.count) directives, over the limit of "
                    + "\(limits.maxDirectives).",
                at: [field.loc], maximum: limits.maxDirectives, actual: field.directives.count)
        }
        if !limits.introspection, field.name.value == "__schema" || field.name.value == "__type" {
            errors.append(
                GraphQLError(
                    "GraphQL introspection is not allowed here, but the query contained \(field.name.value).",
                    at: [field.loc], in: source,
                    extensions: JSONObject([
                        ("code", .string(OperationLimits.Limit.introspection.code)),
                        ("limit", .string(OperationLimits.Limit.introspection.rawValue)),
                    ])))
        }
    }
    return errors
}

// MARK: - Private

/// Calls `body` for every field of the document's operations and fragments, nested ones included.
private func forEachField(in document: Document, _ body: (Field) -> Void) {
    var stack: [SelectionSet] = []
    for definition in document.definitions {
        switch definition {
        case .operation(let operation): stack.append(operation.selectionSet)
        case .fragment(let fragment): stack.append(fragment.selectionSet)
        default: break
        }
    }
    while let set = stack.popLast() {
        for selection in set.selections {
            switch selection {
            case .field(let field):
                body(field)
                if let inner = field.selectionSet { stack.append(inner) }
            case .inlineFragment(let fragment): stack.append(fragment.selectionSet)
            case .fragmentSpread: break
            }
        }
    }
}

/// What a selection set asks for once its fragments are expanded.
private struct Tally {
    /// Field depth, 1 for a set of leaves; 0 for an empty set.
    var depth = 0
    /// A field at `depth` (the first found), where a depth error points.
    var deepestField = Location.none
    /// Aliased fields, saturating at `Int.max` (fragments spread in fragments multiply).
    var aliases = 0
}

/// Measures selection sets, each fragment once (memoised; a cycle, which validation refuses,
/// counts nothing instead of recursing forever).
private struct OperationMeasure {
    private var fragments: [String: SelectionSet] = [:]
    private var tallies: [String: Tally] = [:]
    private var rootCounts: [String: Int] = [:]
    private var inProgress: Set<String> = []

    init(document: Document) {
        for case .fragment(let fragment) in document.definitions where fragments[fragment.name.value] == nil {
            fragments[fragment.name.value] = fragment.selectionSet
        }
    }

    mutating func tally(_ set: SelectionSet) -> Tally {
        var result = Tally()
        func merge(_ inner: Tally, below field: Field?) {
            let depth = inner.depth + (field == nil ? 0 : 1)
            if depth > result.depth {
                result.depth = depth
                result.deepestField = inner.depth == 0 ? (field?.loc ?? .none) : inner.deepestField
            }
            result.aliases = saturatingAdd(result.aliases, inner.aliases)
        }
        for selection in set.selections {
            switch selection {
            case .field(let field):
                if field.alias != nil { result.aliases = saturatingAdd(result.aliases, 1) }
                merge(field.selectionSet.map { tally($0) } ?? Tally(), below: field)
            case .inlineFragment(let fragment):
                merge(tally(fragment.selectionSet), below: nil)
            case .fragmentSpread(let spread):
                merge(fragmentTally(spread.name.value), below: nil)
            }
        }
        return result
    }

    private mutating func fragmentTally(_ name: String) -> Tally {
        if let known = tallies[name] { return known }
        guard let set = fragments[name], inProgress.insert(name).inserted else { return Tally() }
        let result = tally(set)
        inProgress.remove(name)
        tallies[name] = result
        return result
    }

    /// Root fields of an operation: its fields and those of the fragments at its top level.
    mutating func rootFields(_ set: SelectionSet) -> Int {
        var count = 0
        for selection in set.selections {
            switch selection {
            case .field: count = saturatingAdd(count, 1)
            case .inlineFragment(let fragment): count = saturatingAdd(count, rootFields(fragment.selectionSet))
            case .fragmentSpread(let spread):
                let name = spread.name.value
                if let known = rootCounts[name] {
                    count = saturatingAdd(count, known)
                } else if let inner = fragments[name], inProgress.insert(name).inserted {
                    let n = rootFields(inner)
                    inProgress.remove(name)
                    rootCounts[name] = n
                    count = saturatingAdd(count, n)
                }
            }
        }
        return count
    }
}

private func saturatingAdd(_ a: Int, _ b: Int) -> Int {
    let (sum, overflow) = a.addingReportingOverflow(b)
    return overflow ? Int.max : sum
}
