// What every rule of one validation run shares: the schema, the document, type
// information for the walker's position, the fragment index, variable usages, and the
// error list with its limits.

/// One use of a variable in an executable definition, with the input type its position
/// expects (graphql-js `VariableUsage`).
public struct VariableUsage: Sendable {
    /// The `$name` node.
    public let variable: Variable
    /// The type expected where the variable is used; nil when unknown.
    public let type: TypeReference?
    /// Whether that position (argument or input field) declares a default value.
    public let hasDefaultValue: Bool
    /// The type of the enclosing list or input object value, wrappers kept; nil at an
    /// argument.
    public let parentType: TypeReference?
}

/// The state of one `validate` run, handed to every rule (graphql-js `ValidationContext`).
///
/// Errors go through `report(_:_:at:)`; past `maxErrors` the run stops with graphql-js's
/// "Too many validation errors" error. Work that hostile documents can blow up (walking
/// fragments per operation) is metered by a budget whose exhaustion aborts the run with a
/// "Validation aborted" error instead of burning CPU.
public final class ValidationContext {
    public let schema: Schema
    public let document: Document
    public let source: Source
    /// Type information at the walker's current position.
    public internal(set) var typeInfo: TypeInfo

    /// Every fragment definition in document order.
    public let fragmentDefinitions: [FragmentDefinition]
    /// Fragment name → index in `fragmentDefinitions`; the last definition of a name wins,
    /// as in graphql-js (UniqueFragmentNames reports the others).
    let fragmentIndexByName: [String: Int]
    /// Every operation definition in document order.
    public let operations: [OperationDefinition]
    /// Index in `operations` of the operation being walked (or last walked).
    public internal(set) var currentOperationIndex = 0

    private(set) var errors: [GraphQLError] = []
    private let maxErrors: Int
    /// Set when validation stopped early (error limit or a work budget).
    public private(set) var isAborted = false
    private var hitErrorLimit = false
    private var abortError: GraphQLError?
    /// While deferred checks run, errors are kept past the limit: they belong earlier in
    /// the list than the ones that hit it, and `finalErrors` cuts the list afterwards.
    private var runningDeferredChecks = false

    /// Spreads of each fragment's selection set (nested fields included), by fragment index.
    private var spreadsByFragment: [[FragmentSpread]?]
    /// The same for each operation: several rules ask for the spreads of every operation.
    private var spreadsByOperation: [[FragmentSpread]?]
    /// Recursively referenced fragments, keyed by the sorted names spread directly.
    private var referencedFragmentsCache: [[String]: [Int]] = [:]
    private var fragmentUsagesCache: [[String]: [VariableUsage]] = [:]
    private var recursiveUsagesCache: [Int: [VariableUsage]] = [:]
    /// Variable usages recorded by the walker, by operation index and by fragment index.
    var operationUsages: [[VariableUsage]]
    var fragmentUsages: [[VariableUsage]]
    /// Checks that need every fragment's variable usages, with the error count at the time
    /// they were asked for (their errors are inserted there, keeping graphql-js's order).
    private var deferredChecks: [(position: Int, check: () -> Void)] = []

    /// graphql-core 3.2.14's budget for fragment work shared by a document's operations,
    /// counted in fragment spreads and variable usages: far above real documents (the W2
    /// app query spends under 200), and it keeps many operations × deep fragment graphs
    /// from costing quadratic time.
    static let maxFragmentWork = 50_000
    private var remainingFragmentWork = ValidationContext.maxFragmentWork

    init(schema: Schema, document: Document, source: Source, maxErrors: Int) {
        self.schema = schema
        self.document = document
        self.source = source
        self.maxErrors = maxErrors
        self.typeInfo = TypeInfo(schema: schema)
        var fragments: [FragmentDefinition] = []
        var operations: [OperationDefinition] = []
        var index: [String: Int] = [:]
        for definition in document.definitions {
            switch definition {
            case .fragment(let f):
                index[f.name.value] = fragments.count
                fragments.append(f)
            case .operation(let o):
                operations.append(o)
            default: break
            }
        }
        self.fragmentDefinitions = fragments
        self.fragmentIndexByName = index
        self.operations = operations
        self.spreadsByFragment = Array(repeating: nil, count: fragments.count)
        self.spreadsByOperation = Array(repeating: nil, count: operations.count)
        self.operationUsages = Array(repeating: [], count: operations.count)
        self.fragmentUsages = Array(repeating: [], count: fragments.count)
    }

    // MARK: - Errors

    /// Reports a validation error about `nodes` (their source locations, in this order),
    /// tagged `extensions.rule = rule`. Ignored once validation was aborted.
    public func report(_ rule: String, _ message: String, at nodes: [Location]) {
        guard !isAborted || runningDeferredChecks else { return }
        if errors.count >= maxErrors && !runningDeferredChecks {
            hitErrorLimit = true
            isAborted = true
            return
        }
        errors.append(
            GraphQLError(
                message, locations: nodes.filter { $0.start >= 0 }.map(sourceLocation),
                extensions: JSONObject([("rule", .string(rule))])))
    }

    /// Offsets where each line of the source starts, built at the first error: a large
    /// document with many errors would otherwise be rescanned from its start per location.
    private var lineStarts: [Int]?

    /// `source.location(of:)` by binary search over the line starts (same line terminators:
    /// `\n`, `\r\n`, `\r`; columns in Unicode scalars).
    private func sourceLocation(_ location: Location) -> SourceLocation {
        let bytes = source.utf8
        if lineStarts == nil {
            var starts = [0]
            var i = 0
            while i < bytes.count {
                if bytes[i] == 0x0A {
                    starts.append(i + 1)
                } else if bytes[i] == 0x0D {
                    if i + 1 < bytes.count && bytes[i + 1] == 0x0A { i += 1 }
                    starts.append(i + 1)
                }
                i += 1
            }
            lineStarts = starts
        }
        let starts = lineStarts ?? [0]
        let offset = min(location.start, bytes.count)
        var low = 0
        var high = starts.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if starts[mid] <= offset { low = mid } else { high = mid - 1 }
        }
        var column = 1
        var i = starts[low]
        while i < offset {
            if bytes[i] & 0xC0 != 0x80 { column += 1 }
            i += 1
        }
        return SourceLocation(line: low + 1, column: column)
    }

    /// Stops validation with `message` (tagged with `rule`, located at `nodes`), keeping the
    /// errors found so far.
    public func abort(_ rule: String, _ message: String, at nodes: [Location] = []) {
        guard abortError == nil else { return }
        abortError = GraphQLError(
            message, locations: nodes.filter { $0.start >= 0 }.map(sourceLocation),
            extensions: JSONObject([("rule", .string(rule))]))
        isAborted = true
    }

    /// How many more errors `report` keeps before the error limit stops validation (0 once
    /// it is reached). A rule that finds errors in bulk may stop after one more than this.
    public var remainingErrorCapacity: Int {
        isAborted && !runningDeferredChecks ? 0 : max(0, maxErrors - errors.count)
    }

    /// Runs `check` once every fragment of the document has been walked, reporting its
    /// errors at the current place in the error list.
    func deferUntilFragmentsWalked(_ check: @escaping () -> Void) {
        deferredChecks.append((errors.count, check))
    }

    /// Runs the deferred checks, splicing their errors in where they were asked for.
    func runDeferredChecks() {
        guard !deferredChecks.isEmpty else { return }
        let checks = deferredChecks
        deferredChecks = []
        var offset = 0
        runningDeferredChecks = true
        defer { runningDeferredChecks = false }
        for (position, check) in checks {
            guard abortError == nil else { break }
            let before = errors.count
            check()
            let added = errors.count - before
            guard added > 0 else { continue }
            let newErrors = errors[before...]
            errors.removeSubrange(before...)
            errors.insert(contentsOf: newErrors, at: position + offset)
            offset += added
        }
    }

    /// The final error list, cut at `maxErrors` like graphql-js (deferred checks may have
    /// added errors before the point where the limit was hit).
    func finalErrors() -> [GraphQLError] {
        var result = errors
        if hitErrorLimit || result.count > maxErrors {
            result = Array(result.prefix(maxErrors))
            result.append(GraphQLError("Too many validation errors, error limit reached. Validation aborted."))
        } else if let abortError {
            result.append(abortError)
        }
        return result
    }

    // MARK: - Directives

    private var documentDirectiveDefinitions: [DirectiveDefinition]?

    /// Directive definitions written in the document itself: graphql-js lets them count
    /// as known directives next to the schema's.
    public var directiveDefinitionsInDocument: [DirectiveDefinition] {
        if let documentDirectiveDefinitions { return documentDirectiveDefinitions }
        var result: [DirectiveDefinition] = []
        for definition in document.definitions {
            if case .directive(let d) = definition { result.append(d) }
        }
        documentDirectiveDefinitions = result
        return result
    }

    // MARK: - Fragments

    /// The fragment definition named `name` (graphql-js `getFragment`).
    public func fragment(named name: String) -> FragmentDefinition? {
        fragmentIndexByName[name].map { fragmentDefinitions[$0] }
    }

    /// Spends fragment work; past the budget, aborts validation and returns false.
    @discardableResult
    func spendFragmentWork(_ cost: Int, rule: String) -> Bool {
        remainingFragmentWork -= cost
        if remainingFragmentWork < 0 {
            abort(rule, "Validation aborted: the document's fragments need too much work to validate.")
            return false
        }
        return true
    }

    /// The fragment spreads in a selection set, nested fields and inline fragments
    /// included, not following spreads (graphql-js `getFragmentSpreads`, same order).
    public func fragmentSpreads(in selectionSet: SelectionSet) -> [FragmentSpread] {
        var spreads: [FragmentSpread] = []
        var setsToVisit: [SelectionSet] = [selectionSet]
        while let set = setsToVisit.popLast() {
            for selection in set.selections {
                switch selection {
                case .fragmentSpread(let s): spreads.append(s)
                case .field(let f): if let sub = f.selectionSet { setsToVisit.append(sub) }
                case .inlineFragment(let i): setsToVisit.append(i.selectionSet)
                }
            }
        }
        return spreads
    }

    /// `fragmentSpreads(in:)` of the fragment at `index`, cached.
    func fragmentSpreads(ofFragment index: Int) -> [FragmentSpread] {
        if let cached = spreadsByFragment[index] { return cached }
        let spreads = fragmentSpreads(in: fragmentDefinitions[index].selectionSet)
        spreadsByFragment[index] = spreads
        return spreads
    }

    /// `fragmentSpreads(in:)` of the operation at `index`, cached.
    func fragmentSpreads(ofOperation index: Int) -> [FragmentSpread] {
        if let cached = spreadsByOperation[index] { return cached }
        let spreads = fragmentSpreads(in: operations[index].selectionSet)
        spreadsByOperation[index] = spreads
        return spreads
    }

    /// Records that the walker saw every selection of the operation at `index` and no
    /// fragment spread among them, so that no rule walks it again to find none.
    func noteOperationHasNoSpreads(_ index: Int) {
        spreadsByOperation[index] = []
    }

    /// Indices of the fragments the operations reference, directly or through other
    /// fragments, in discovery order (graphql-js `getRecursivelyReferencedFragments`).
    func recursivelyReferencedFragments(of operationIndices: [Int], rule: String) -> [Int] {
        var names: [String] = []
        var seen = Set<String>()
        for i in operationIndices {
            for spread in fragmentSpreads(ofOperation: i) where seen.insert(spread.name.value).inserted {
                names.append(spread.name.value)
            }
        }
        let key = names.sorted()
        if let cached = referencedFragmentsCache[key] { return cached }
        guard spendFragmentWork(names.count, rule: rule) else { return [] }
        var result: [Int] = []
        var i = 0
        while i < names.count {
            if let index = fragmentIndexByName[names[i]] {
                result.append(index)
                let spreads = fragmentSpreads(ofFragment: index)
                guard spendFragmentWork(spreads.count, rule: rule) else { return [] }
                for spread in spreads where seen.insert(spread.name.value).inserted {
                    names.append(spread.name.value)
                }
            }
            i += 1
        }
        referencedFragmentsCache[key] = result
        return result
    }

    /// Every variable usage of the operation at `operationIndex`, its own first, then
    /// those of the fragments it references (graphql-js `getRecursiveVariableUsages`).
    /// Only valid once every definition has been walked (see `deferUntilFragmentsWalked`).
    func recursiveVariableUsages(ofOperation operationIndex: Int, rule: String) -> [VariableUsage] {
        if let cached = recursiveUsagesCache[operationIndex] { return cached }
        var names = Set<String>()
        for spread in fragmentSpreads(ofOperation: operationIndex) { names.insert(spread.name.value) }
        let key = names.sorted()
        let fragments = recursivelyReferencedFragments(of: [operationIndex], rule: rule)
        var fromFragments: [VariableUsage]
        if let cached = fragmentUsagesCache[key] {
            fromFragments = cached
        } else {
            guard spendFragmentWork(fragments.count, rule: rule) else { return [] }
            fromFragments = []
            for index in fragments {
                let local = fragmentUsages[index]
                guard spendFragmentWork(local.count, rule: rule) else { return [] }
                fromFragments.append(contentsOf: local)
            }
            fragmentUsagesCache[key] = fromFragments
        }
        guard spendFragmentWork(fromFragments.count, rule: rule) else { return [] }
        let usages = operationUsages[operationIndex] + fromFragments
        recursiveUsagesCache[operationIndex] = usages
        return usages
    }
}
