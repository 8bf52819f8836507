extension Document {
    /// Whether any selection of an operation or fragment carries `@defer` or `@stream` (the
    /// incremental delivery RFC's directives), whatever their `if`: only such a document can
    /// produce more than one payload. A transport asks this before choosing incremental
    /// execution, so that every other document keeps the ordinary path (and its result cache).
    public var usesIncrementalDelivery: Bool {
        definitions.contains { definition in
            switch definition {
            case .operation(let operation): operation.selectionSet.usesIncrementalDelivery
            case .fragment(let fragment): fragment.selectionSet.usesIncrementalDelivery
            default: false
            }
        }
    }
}

extension SelectionSet {
    fileprivate var usesIncrementalDelivery: Bool {
        selections.contains { selection in
            if selection.directives.contains(where: { $0.name.value == "defer" || $0.name.value == "stream" }) {
                return true
            }
            switch selection {
            case .field(let field): return field.selectionSet?.usesIncrementalDelivery ?? false
            case .fragmentSpread: return false  // its fragment's definition is looked at itself
            case .inlineFragment(let fragment): return fragment.selectionSet.usesIncrementalDelivery
            }
        }
    }
}
