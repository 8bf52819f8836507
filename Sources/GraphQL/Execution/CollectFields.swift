/// CollectFields (spec §6.3.2 "Field Collection"), over several selection sets at once so
/// that CollectSubfields (§6.4.3) is the same call with the merged fields' selection sets.
///
/// Returns the response keys in first-seen order, each with its field nodes in document
/// order ("field merging": same-key fields execute once with all their nodes). Applies
/// `@skip(if:)` / `@include(if:)` (§6.3.2 steps 2.a–b), visits each named fragment at
/// most once per call (`visitedFragments`), and keeps fragments whose type condition
/// `objectType` satisfies (DoesFragmentTypeApply). Unknown fragments are skipped.
/// - Throws: `GraphQLError` when a `@skip`/`@include` argument cannot be coerced.
func collectFields(
    objectType: String, selectionSets: [SelectionSet], in context: ExecutionContext
) throws(GraphQLError) -> [(String, [Field])] {
    var collector = FieldCollector(objectType: objectType, context: context)
    for selectionSet in selectionSets {
        try collector.collect(selectionSet)
    }
    return collector.keys.map { ($0, collector.fields[$0] ?? []) }
}

private struct FieldCollector {
    let objectType: String
    let context: ExecutionContext
    var keys: [String] = []
    var fields: [String: [Field]] = [:]
    var visitedFragments: Set<String> = []

    init(objectType: String, context: ExecutionContext) {
        self.objectType = objectType
        self.context = context
    }

    mutating func collect(_ selectionSet: SelectionSet) throws(GraphQLError) {
        for selection in selectionSet.selections {
            switch selection {
            case .field(let field):
                guard try shouldInclude(field.directives) else { continue }
                let key = field.responseKey
                if fields[key] == nil {
                    keys.append(key)
                    fields[key] = [field]
                } else {
                    fields[key]?.append(field)
                }
            case .inlineFragment(let fragment):
                guard try shouldInclude(fragment.directives) else { continue }
                if let condition = fragment.typeCondition, !doesFragmentTypeApply(condition.name.value) { continue }
                try collect(fragment.selectionSet)
            case .fragmentSpread(let spread):
                let name = spread.name.value
                // As graphql-js: a spread marks its fragment visited before the condition check.
                guard !visitedFragments.contains(name), try shouldInclude(spread.directives) else { continue }
                visitedFragments.insert(name)
                guard let fragment = context.fragments[name], doesFragmentTypeApply(fragment.typeCondition.name.value)
                else { continue }
                try collect(fragment.selectionSet)
            }
        }
    }

    /// DoesFragmentTypeApply (§6.3.2): the condition is the object type, or an interface or
    /// union it belongs to.
    func doesFragmentTypeApply(_ condition: String) -> Bool {
        if condition == objectType { return true }
        switch context.schema.types[condition] {
        case .interface?, .union?: return context.schema.isPossibleType(condition, objectType)
        default: return false
        }
    }

    /// `@skip(if: true)` excludes; `@include(if: false)` excludes (§3.13.2, §3.13.3).
    func shouldInclude(_ directives: [Directive]) throws(GraphQLError) -> Bool {
        if directives.isEmpty { return true }
        if let skip = directives.first(where: { $0.name.value == "skip" }), try directiveCondition(skip) == true {
            return false
        }
        if let include = directives.first(where: { $0.name.value == "include" }),
            try directiveCondition(include) == false
        {
            return false
        }
        return true
    }

    /// The coerced `if:` argument of a `@skip`/`@include` node (graphql-js `getDirectiveValues`).
    private func directiveCondition(_ directive: Directive) throws(GraphQLError) -> Bool? {
        let definitions =
            context.schema.directive(directive.name.value)?.arguments
            ?? [InputValueModel(name: "if", type: .nonNull(.named("Boolean")))]
        let values = try coerceArgumentValues(
            definitions: definitions, arguments: directive.arguments, node: directive.loc,
            variableValues: context.variableValues, in: context)
        if case .bool(let b)? = values["if"] { return b }
        return nil
    }
}
