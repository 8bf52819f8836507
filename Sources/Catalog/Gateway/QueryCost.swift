import GraphQL

/// Estimates the upstream cost of an operation before it runs, in quota units, from the cost
/// model the schema declares (`CostModel`: `@cost`, `@listSize`, `@costWhen` in
/// `schema.graphql`), so that a schema author sets what a field costs without touching Swift.
///
/// The estimate is the IBM draft's field cost: each field adds its weight once per upstream call
/// it makes, which is once per parent object, or once per batch of parents for fields whose
/// resolvers read through a multi-id lookup (`parentsPerCall`, the loaders' batch sizes: code,
/// not schema); each argument with a weight adds it per field instance; a field without a
/// weight of its own adds its type's weight per returned value; list fields multiply the
/// objects below them by their size (`@listSize`: the slicing argument's value, literal,
/// variable or default, else `assumedSize`, else `defaultListSize`). It is an upper bound on the
/// shape, not on deduplication: tracks sharing a title are counted apart.
///
/// What a request actually sends is priced by its upstream's traits (`UpstreamTraits`, the
/// APIs' own prices) and bounded during execution by `RequestBudget`.
public enum QueryCost {
    /// Parents per upstream call of the fields whose resolvers batch their parents' ids into one
    /// lookup, on every catalog that field can read: the estimate does not know which catalog a
    /// parent comes from, so it takes the smallest batch (iTunes `lookup?id=` takes 200 ids,
    /// Apple Music `artists?ids=` 25 and `albums?ids=` 100). `Artist.albums` is not here: Apple
    /// Music (`artists/{id}/albums`) and Rakuten (a search by name) ask once per artist.
    static let parentsPerCall: [String: Int] = [
        "Album.artist": min(ITunesProvider.maxLookupIds, AppleMusicProvider.maxArtistIds),
        "Album.tracks": min(ITunesProvider.maxLookupIds, AppleMusicProvider.maxAlbumIds),
        "Track.album": min(ITunesProvider.maxLookupIds, AppleMusicProvider.maxAlbumIds),
    ]

    /// What each introspection selection adds (spec §4.2: `__schema` and `__type` on the query
    /// root type), in the same units as upstream calls although it sends none: a `__schema`
    /// answer is a whole schema (about 16 KB and 0.5 ms of CPU for GraphiQL's query), so it is
    /// priced like a YouTube search; `__type` answers one type. Without it a document of 600
    /// aliased `__schema` selections costs 0 and answers 9.8 MB. `__typename` is free. The
    /// schema cannot carry these weights: introspection fields are not in its SDL.
    public static let introspectionWeights: [String: Int] = ["__schema": 100, "__type": 10]

    /// The size assumed for a list field whose `@listSize` gives none (and for lists without one).
    static let defaultListSize = 10

    /// The estimated cost of the operation `operationName` selects in `document` (0 when none
    /// does: execution reports that), with `variables` giving `first: $n` values.
    ///
    /// - Parameter model: the schema's cost model (built from `schema` when nil; the gateway
    ///   passes the one it built at start-up).
    public static func estimate(
        document: Document, source: Source, operationName: String?, variables: JSONObject, schema: Schema,
        model: CostModel? = nil
    ) -> Int {
        analyze(
            document: document, source: source, operationName: operationName, variables: variables, schema: schema,
            model: model
        ).cost
    }

    /// An estimate and what the cost directives refuse in the operation.
    public struct Estimate: Sendable, Equatable {
        /// Quota units; `Int.max` when the operation is too large to estimate.
        public var cost: Int
        /// One message per field that breaks `@listSize(requireOneSlicingArgument: true)` by giving
        /// none or several of its slicing arguments a value (a default counts as given).
        public var problems: [String]
    }

    /// `estimate`, with the fields whose `@listSize` the operation does not satisfy.
    public static func analyze(
        document: Document, source: Source, operationName: String?, variables: JSONObject, schema: Schema,
        model: CostModel? = nil
    ) -> Estimate {
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
        guard let operation, let root = schema.rootTypeName(for: operation.operation) else {
            return Estimate(cost: 0, problems: [])
        }
        // The values execution will see (spec §6.1.2 CoerceVariableValues): defaults included, so
        // `$n: Int = 1` is priced at 1, not at the field's default list size. Variables that do
        // not coerce fail execution anyway; the estimate then reads them as given.
        let coerced: JSONObject
        switch coerceVariableValues(schema: schema, operation: operation, inputs: variables, source: source) {
        case .success(let values): coerced = values
        case .failure: coerced = variables
        }
        let model = model ?? (try? CostModel(schema: schema)) ?? CostModel.empty
        var walker = Walker(schema: schema, model: model, fragments: fragments, variables: coerced)
        var visited: Set<String> = []
        let cost = walker.cost(of: operation.selectionSet, on: root, count: 1, visitedFragments: &visited)
        return Estimate(cost: cost, problems: walker.problems)
    }

    struct Walker {
        let schema: Schema
        let model: CostModel
        let fragments: [String: FragmentDefinition]
        let variables: JSONObject
        /// Selections still to visit before the estimate gives up and answers `Int.max`: a
        /// document whose fields fan out through fragments can describe exponentially many
        /// fields in a few hundred bytes, and estimating it must stay cheap (it runs before
        /// execution, on text from strangers).
        var remainingWork = Walker.workBudget
        static let workBudget = 100_000
        /// Fields that break `requireOneSlicingArgument`, once each.
        var problems: [String] = []

        /// Like CollectFields (spec §6.3.2), a fragment is expanded once per selection set
        /// however often it is spread there (which also stops cycles); each field's own
        /// selection set starts afresh.
        /// `sizedFields`: the child fields a parent's `@listSize(sizedFields:)` gives its size to
        /// (a connection's `edges`/`nodes`), and that size.
        mutating func cost(
            of selectionSet: SelectionSet, on typeName: String, count: Int, visitedFragments: inout Set<String>,
            sizedFields: (names: Set<String>, size: Int)? = nil
        ) -> Int {
            guard count > 0 else { return 0 }
            var total = 0
            for selection in selectionSet.selections {
                remainingWork -= 1
                guard remainingWork > 0 else { return .max }
                guard isIncluded(selection.directives) else { continue }
                switch selection {
                case .field(let field):
                    let size = sizedFields.flatMap { $0.names.contains(field.name.value) ? $0.size : nil }
                    total = saturatingAdd(total, cost(of: field, on: typeName, count: count, sizedBy: size))
                case .inlineFragment(let fragment):
                    let type = fragment.typeCondition?.name.value ?? typeName
                    total = saturatingAdd(
                        total,
                        cost(
                            of: fragment.selectionSet, on: type, count: count, visitedFragments: &visitedFragments,
                            sizedFields: sizedFields))
                case .fragmentSpread(let spread):
                    let name = spread.name.value
                    guard let fragment = fragments[name], visitedFragments.insert(name).inserted else { continue }
                    total = saturatingAdd(
                        total,
                        cost(
                            of: fragment.selectionSet, on: fragment.typeCondition.name.value, count: count,
                            visitedFragments: &visitedFragments, sizedFields: sizedFields))
                }
            }
            return total
        }

        /// `sizedBy`: the list size a parent's `@listSize(sizedFields:)` gives this field.
        mutating func cost(of field: Field, on typeName: String, count: Int, sizedBy: Int? = nil) -> Int {
            let name = field.name.value
            // An introspection field is priced as a whole: what it selects below calls no upstream.
            guard !name.hasPrefix("__") else {
                return saturatingMultiply(count, QueryCost.introspectionWeights[name] ?? 0)
            }
            // On an interface (Node), count the field as on the costliest implementation.
            let concreteTypes =
                schema.possibleTypes(of: typeName).isEmpty ? [typeName] : schema.possibleTypes(of: typeName)
            var best = 0
            for concrete in concreteTypes {
                guard let definition = schema.types[concrete]?.field(name) else { continue }
                let coordinate = "\(concrete).\(name)"
                let declared = model.fields[coordinate]
                var here = 0
                let weight = declared.flatMap { fieldWeight(field, $0) }
                if let weight {
                    // ⌈count / parentsPerCall⌉ without overflowing when count has saturated.
                    let batch = model.parentsPerCall[coordinate] ?? 1
                    let calls = count / batch + (count % batch == 0 ? 0 : 1)
                    here = saturatingMultiply(calls, weight)
                }
                if let declared, !declared.argumentWeights.isEmpty {
                    here = saturatingAdd(here, saturatingMultiply(count, argumentsCost(field, definition, declared)))
                }
                let size = listSize(of: field, definition, declared?.listSize)
                if let declared = declared?.listSize { checkSlicing(field, definition, declared, coordinate) }
                let sizedHere = declared?.listSize.map { !$0.sizedFields.isEmpty } ?? false
                let children =
                    if let sizedBy { saturatingMultiply(count, sizedBy) } else if isList(definition.type) && !sizedHere
                    {
                        saturatingMultiply(count, size)
                    } else { count }
                if weight == nil, let typeWeight = model.typeWeights[definition.type.namedType] {
                    here = saturatingAdd(here, saturatingMultiply(children, typeWeight))
                }
                if let selectionSet = field.selectionSet {
                    var visited: Set<String> = []
                    let sized = sizedHere ? (Set(declared?.listSize?.sizedFields ?? []), size) : nil
                    here = saturatingAdd(
                        here,
                        cost(
                            of: selectionSet, on: definition.type.namedType, count: children,
                            visitedFragments: &visited, sizedFields: sized))
                }
                best = max(best, here)
            }
            return best
        }

        /// The field's weight: the first `@costWhen` whose enum argument has its value (literal or
        /// variable), else `@cost`.
        func fieldWeight(_ field: Field, _ declared: CostModel.FieldCost) -> Int? {
            for conditional in declared.weightWhen where enumArgument(field, conditional.argument) == conditional.value
            {
                return conditional.weight
            }
            return declared.weight
        }

        /// The weights of the arguments given to `field` (and of the input fields inside them).
        func argumentsCost(_ field: Field, _ definition: FieldDefinitionModel, _ declared: CostModel.FieldCost) -> Int {
            var total = 0
            for argument in field.arguments {
                if case .variable(let variable) = argument.value, variables[variable.name.value] == nil { continue }
                if case .null = argument.value { continue }
                total = saturatingAdd(total, declared.argumentWeights[argument.name.value] ?? 0)
                if let type = definition.argument(argument.name.value)?.type {
                    total = saturatingAdd(total, inputCost(argument.value, type: type.namedType))
                }
            }
            return total
        }

        /// The weights of the input object fields present in `value` of input type `typeName`.
        func inputCost(_ value: Value, type typeName: String) -> Int {
            guard case .inputObject(let input)? = schema.types[typeName] else { return 0 }
            switch value {
            case .object(let object):
                var total = 0
                for entry in object.fields {
                    guard let field = input.field(entry.name.value) else { continue }
                    total = saturatingAdd(total, model.inputFieldWeights["\(typeName).\(field.name)"] ?? 0)
                    total = saturatingAdd(total, inputCost(entry.value, type: field.type.namedType))
                }
                return total
            case .list(let list):
                return list.values.reduce(0) { saturatingAdd($0, inputCost($1, type: typeName)) }
            case .variable(let variable):
                return variables[variable.name.value].map { inputCost($0, type: typeName) } ?? 0
            default:
                return 0
            }
        }

        /// `inputCost` of a variable's coerced JSON value.
        func inputCost(_ value: JSONValue, type typeName: String) -> Int {
            guard case .inputObject(let input)? = schema.types[typeName] else { return 0 }
            switch value {
            case .object(let object):
                var total = 0
                for (name, entry) in object.entries {
                    guard let field = input.field(name) else { continue }
                    total = saturatingAdd(total, model.inputFieldWeights["\(typeName).\(name)"] ?? 0)
                    total = saturatingAdd(total, inputCost(entry, type: field.type.namedType))
                }
                return total
            case .array(let items):
                return items.reduce(0) { saturatingAdd($0, inputCost($1, type: typeName)) }
            default:
                return 0
            }
        }

        /// The size of the list `field` returns: the largest value given to one of its slicing
        /// arguments (literal, variable, or the argument's default), else `assumedSize`, else
        /// `defaultListSize`.
        func listSize(of field: Field, _ definition: FieldDefinitionModel, _ declared: CostModel.ListSize?) -> Int {
            var sizes: [Int] = []
            for name in declared?.slicingArguments ?? [] {
                if let size = intArgument(field, name) ?? defaultInt(definition.argument(name)) { sizes.append(size) }
            }
            if let largest = sizes.max() { return largest }
            return declared?.assumedSize ?? QueryCost.defaultListSize
        }

        mutating func checkSlicing(
            _ field: Field, _ definition: FieldDefinitionModel, _ declared: CostModel.ListSize, _ coordinate: String
        ) {
            guard declared.requireOneSlicingArgument, !declared.slicingArguments.isEmpty else { return }
            let given = declared.slicingArguments.filter {
                intArgument(field, $0) != nil || defaultInt(definition.argument($0)) != nil
            }
            guard given.count != 1 else { return }
            let problem =
                "\(coordinate) needs exactly one of its slicing arguments (\(declared.slicingArguments.joined(separator: ", "))) "
                + "to have a value, got \(given.count) (@listSize(requireOneSlicingArgument: true) in the schema)."
            if !problems.contains(problem) { problems.append(problem) }
        }

        func defaultInt(_ argument: InputValueModel?) -> Int? {
            if case .int(let literal)? = argument?.defaultValue { return Int(literal.value).map { max(0, $0) } }
            return nil
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

        /// The value of an Int argument given as a literal or a variable; nil when absent or left
        /// to its default.
        func intArgument(_ field: Field, _ name: String) -> Int? {
            guard let argument = field.arguments.first(where: { $0.name.value == name }) else { return nil }
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
