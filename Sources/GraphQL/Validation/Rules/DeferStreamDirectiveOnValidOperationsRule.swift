/// Defer and stream directives are used on valid operations
///
/// A subscription delivers one result per event: a `@defer` or `@stream` reachable from a
/// subscription operation (through its selections and the fragments they spread) must be
/// disabled by its `if` argument, a variable or `false`. Selections that `@skip` or
/// `@include` may leave out (a literal, or a variable) are not checked.
/// Incremental delivery RFC (graphql-spec branch `incremental-integration-validation`),
/// "Defer And Stream Directives Are Used On Valid Operations"; graphql-js 17
/// `DeferStreamDirectiveOnValidOperationsRule` (which also finds the fragments a subscription
/// spreads when they are defined before it, as the RFC's algorithm does).
final class DeferStreamDirectiveOnValidOperationsRule: ValidationVisitor {
    static let rule = ValidationRule(name: "DeferStreamDirectiveOnValidOperations") {
        DeferStreamDirectiveOnValidOperationsRule(context: $0)
    }
    private let context: ValidationContext
    let events: ValidationEvents = [.operation]
    /// Directives reported already (a fragment may be reached from several subscriptions).
    private var reported: Set<Int> = []
    init(context: ValidationContext) { self.context = context }

    func enterOperation(_ operation: OperationDefinition) {
        guard operation.operation == .subscription else { return }
        var visited: Set<String> = []
        forbidUnconditionalDeferStream(operation.selectionSet, visited: &visited)
    }

    /// The RFC's ForbidUnconditionalDeferStream(selectionSet).
    private func forbidUnconditionalDeferStream(_ selectionSet: SelectionSet, visited: inout Set<String>) {
        for selection in selectionSet.selections {
            let directives = selection.directives
            if let skip = directives.first(where: { $0.name.value == "skip" }), canBeSkipped(by: skip, skipping: true) {
                continue
            }
            if let include = directives.first(where: { $0.name.value == "include" }),
                canBeSkipped(by: include, skipping: false)
            {
                continue
            }
            for directive in directives {
                let kind: String
                switch directive.name.value {
                case "defer": kind = "Defer"
                case "stream": kind = "Stream"
                default: continue
                }
                guard !ifArgumentCanBeFalse(directive), reported.insert(directive.loc.start).inserted else { continue }
                context.report(
                    "DeferStreamDirectiveOnValidOperations",
                    "\(kind) directive not supported on subscription operations. Disable `@\(directive.name.value)` by setting the `if` argument to `false`.",
                    at: [directive.loc])
            }
            switch selection {
            case .field(let field):
                if let subSelection = field.selectionSet {
                    forbidUnconditionalDeferStream(subSelection, visited: &visited)
                }
            case .inlineFragment(let fragment):
                forbidUnconditionalDeferStream(fragment.selectionSet, visited: &visited)
            case .fragmentSpread(let spread):
                guard visited.insert(spread.name.value).inserted,
                    let fragment = context.fragment(named: spread.name.value)
                else { continue }
                forbidUnconditionalDeferStream(fragment.selectionSet, visited: &visited)
            }
        }
    }

    /// `@skip` (`skipping`) or `@include` can leave the selection out: a variable, or the
    /// literal that excludes (no `if` at all: `@skip` always skips, `@include` never excludes).
    private func canBeSkipped(by directive: Directive, skipping: Bool) -> Bool {
        guard let argument = directive.arguments.first(where: { $0.name.value == "if" }) else { return skipping }
        switch argument.value {
        case .boolean(let literal): return literal.value == skipping
        case .variable: return true
        default: return false
        }
    }

    /// `if:` is a variable or the literal `false`.
    private func ifArgumentCanBeFalse(_ directive: Directive) -> Bool {
        guard let argument = directive.arguments.first(where: { $0.name.value == "if" }) else { return false }
        switch argument.value {
        case .boolean(let literal): return !literal.value
        case .variable: return true
        default: return false
        }
    }
}
