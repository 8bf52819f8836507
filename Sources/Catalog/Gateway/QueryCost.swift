import GraphQL

/// Estimates the upstream cost of an operation before it runs, in quota units: a YouTube
/// search costs 100, every other upstream call 1 (the model, after YouTube's quota).
///
/// The estimate walks the selection set (fragments included) with the number of objects
/// each level will hold: list fields multiply it by their `first` argument (literal or
/// variable) or a per-field default; fields that read through a multi-id lookup add one
/// call per batch of that many parents; searches add one call per parent. It is an upper
/// bound on the shape, not on deduplication: tracks sharing a title are counted apart.
public enum QueryCost {
    /// List sizes assumed when a list field has no `first` argument.
    static let defaultListSize: [String: Int] = ["Artist.albums": 25, "Album.tracks": 15, "Movie.videos": 3]

    /// Per-field call model: cost of one call, parents per call (1 = one call per parent),
    /// and the list size argument's default.
    struct Rule {
        var unitCost = 1
        var parentsPerCall = 1
        var defaultFirst: Int? = nil
        /// Unit costs that replace `unitCost` when the field's `source` argument names another
        /// upstream (`Track.videos(source: ITUNES)` searches iTunes, 1 unit, not YouTube).
        var unitCostBySource: [String: Int] = [:]
    }

    static let rules: [String: Rule] = [
        "Query.artist": Rule(), "Query.artists": Rule(defaultFirst: 10), "Query.album": Rule(),
        "Query.albums": Rule(defaultFirst: 10), "Query.track": Rule(), "Query.node": Rule(),
        "Query.videos": Rule(unitCost: 100, defaultFirst: 10), "Query.movies": Rule(defaultFirst: 10),
        "Artist.albums": Rule(parentsPerCall: ITunesProvider.maxLookupIds, defaultFirst: 25),
        "Album.artist": Rule(parentsPerCall: ITunesProvider.maxLookupIds),
        "Album.tracks": Rule(parentsPerCall: ITunesProvider.maxLookupIds, defaultFirst: 15),
        "Track.album": Rule(parentsPerCall: ITunesProvider.maxLookupIds),
        "Track.videos": Rule(unitCost: 100, defaultFirst: 3, unitCostBySource: ["ITUNES": 1]),
        "Movie.videos": Rule(defaultFirst: 3),
    ]

    /// The estimated cost of the operation `operationName` selects in `document` (0 when none
    /// does: execution reports that), with `variables` giving `first: $n` values.
    public static func estimate(
        document: Document, source: Source, operationName: String?, variables: JSONObject, schema: Schema
    ) -> Int {
        var fragments: [String: FragmentDefinition] = [:]
        var operations: [OperationDefinition] = []
        for definition in document.definitions {
            switch definition {
            case .operation(let operation): operations.append(operation)
            case .fragment(let fragment): fragments[fragment.name.value] = fragment
            default: break
            }
        }
        let operation =
            operationName.map { name in operations.first { $0.name?.value == name } }
            ?? (operations.count == 1 ? operations.first : nil)
        guard let operation, let root = schema.rootTypeName(for: operation.operation) else { return 0 }
        // The values execution will see (spec §6.1.2 CoerceVariableValues): defaults included, so
        // `$n: Int = 1` is priced at 1, not at the field's default list size. Variables that do
        // not coerce fail execution anyway; the estimate then reads them as given.
        let coerced: JSONObject
        switch coerceVariableValues(schema: schema, operation: operation, inputs: variables, source: source) {
        case .success(let values): coerced = values
        case .failure: coerced = variables
        }
        var walker = Walker(schema: schema, fragments: fragments, variables: coerced)
        var visited: Set<String> = []
        return walker.cost(of: operation.selectionSet, on: root, count: 1, visitedFragments: &visited)
    }

    struct Walker {
        let schema: Schema
        let fragments: [String: FragmentDefinition]
        let variables: JSONObject
        /// Selections still to visit before the estimate gives up and answers `Int.max`: a
        /// document whose fields fan out through fragments can describe exponentially many
        /// fields in a few hundred bytes, and estimating it must stay cheap (it runs before
        /// execution, on text from strangers).
        var remainingWork = Walker.workBudget
        static let workBudget = 100_000

        /// Like CollectFields (spec §6.3.2), a fragment is expanded once per selection set
        /// however often it is spread there (which also stops cycles); each field's own
        /// selection set starts afresh.
        mutating func cost(
            of selectionSet: SelectionSet, on typeName: String, count: Int, visitedFragments: inout Set<String>
        ) -> Int {
            guard count > 0 else { return 0 }
            var total = 0
            for selection in selectionSet.selections {
                remainingWork -= 1
                guard remainingWork > 0 else { return .max }
                guard isIncluded(selection.directives) else { continue }
                switch selection {
                case .field(let field):
                    total = saturatingAdd(total, cost(of: field, on: typeName, count: count))
                case .inlineFragment(let fragment):
                    let type = fragment.typeCondition?.name.value ?? typeName
                    total = saturatingAdd(
                        total,
                        cost(of: fragment.selectionSet, on: type, count: count, visitedFragments: &visitedFragments))
                case .fragmentSpread(let spread):
                    let name = spread.name.value
                    guard let fragment = fragments[name], visitedFragments.insert(name).inserted else { continue }
                    total = saturatingAdd(
                        total,
                        cost(
                            of: fragment.selectionSet, on: fragment.typeCondition.name.value, count: count,
                            visitedFragments: &visitedFragments))
                }
            }
            return total
        }

        mutating func cost(of field: Field, on typeName: String, count: Int) -> Int {
            let name = field.name.value
            guard !name.hasPrefix("__") else { return 0 }
            // On an interface (Node), count the field as on the costliest implementation.
            let concreteTypes =
                schema.possibleTypes(of: typeName).isEmpty ? [typeName] : schema.possibleTypes(of: typeName)
            var best = 0
            for concrete in concreteTypes {
                guard let definition = schema.types[concrete]?.field(name) else { continue }
                let key = "\(concrete).\(name)"
                var here = 0
                var children = count
                if let rule = rules[key] {
                    // ⌈count / parentsPerCall⌉ without overflowing when count has saturated.
                    let calls = count / rule.parentsPerCall + (count % rule.parentsPerCall == 0 ? 0 : 1)
                    let unitCost = enumArgument(field, "source").flatMap { rule.unitCostBySource[$0] } ?? rule.unitCost
                    here = saturatingMultiply(calls, unitCost)
                    if isList(definition.type) {
                        children = saturatingMultiply(
                            count, firstArgument(field) ?? rule.defaultFirst ?? defaultListSize[key] ?? 10)
                    }
                }
                if let selectionSet = field.selectionSet {
                    var visited: Set<String> = []
                    here = saturatingAdd(
                        here,
                        cost(
                            of: selectionSet, on: definition.type.namedType, count: children, visitedFragments: &visited
                        ))
                }
                best = max(best, here)
            }
            return best
        }

        /// False when `@skip(if: true)` or `@include(if: false)` drops the selection, as
        /// CollectFields does (spec §6.3.2); the condition may be a literal or a variable. A
        /// condition whose value is not known here (a variable left to its default) counts the
        /// selection: the estimate stays an upper bound.
        func isIncluded(_ directives: [Directive]) -> Bool {
            for directive in directives where directive.name.value == "skip" || directive.name.value == "include" {
                guard let argument = directive.arguments.first(where: { $0.name.value == "if" }) else { continue }
                let condition: Bool?
                switch argument.value {
                case .boolean(let literal): condition = literal.value
                case .variable(let variable):
                    if case .bool(let value)? = variables[variable.name.value] {
                        condition = value
                    } else {
                        condition = nil
                    }
                default: condition = nil
                }
                guard let condition else { continue }
                if directive.name.value == "skip" ? condition : !condition { return false }
            }
            return true
        }

        func firstArgument(_ field: Field) -> Int? {
            guard let argument = field.arguments.first(where: { $0.name.value == "first" }) else { return nil }
            switch argument.value {
            case .int(let literal): return Int(literal.value).map { max(0, $0) }
            case .variable(let variable):
                if case .int(let n)? = variables[variable.name.value] { return max(0, n) }
                return nil
            default: return nil
            }
        }

        /// The value of an enum argument given as a literal or a variable; nil when absent or
        /// left to its default.
        func enumArgument(_ field: Field, _ name: String) -> String? {
            guard let argument = field.arguments.first(where: { $0.name.value == name }) else { return nil }
            switch argument.value {
            case .enumValue(let literal): return literal.value
            case .variable(let variable):
                if case .string(let value)? = variables[variable.name.value] { return value }
                return nil
            default: return nil
            }
        }

        func isList(_ type: TypeReference) -> Bool {
            type.description.hasPrefix("[")
        }
    }
}

private func saturatingAdd(_ a: Int, _ b: Int) -> Int {
    let (sum, overflow) = a.addingReportingOverflow(b)
    return overflow ? .max : sum
}

private func saturatingMultiply(_ a: Int, _ b: Int) -> Int {
    let (product, overflow) = a.multipliedReportingOverflow(by: b)
    return overflow ? .max : product
}
