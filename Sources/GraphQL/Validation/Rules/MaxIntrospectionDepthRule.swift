/// Max introspection depth
///
/// An introspection query (`__schema` or `__type`) must not nest the list fields
/// `fields`, `interfaces`, `possibleTypes` and `inputFields` three deep, fragments
/// followed: such queries return output that grows exponentially with the schema.
/// graphql-js 16.9 `MaxIntrospectionDepthRule` (recommended rule, no spec section);
/// introspection itself is spec §4 https://spec.graphql.org/September2025/#sec-Introspection
///
/// Algorithm: a depth-first walk from each `__schema`/`__type` field with an explicit
/// stack. A fragment is not re-entered within one walk at an entry depth no deeper than
/// a visit still open (that breaks cycles), and results are remembered across walks: the
/// deepest entry depth at which a fragment was fully checked without reaching the limit,
/// and the shallowest at which it reached it (graphql-core 3.2.14's memoisation).
final class MaxIntrospectionDepthRule: ValidationVisitor {
    static let rule = ValidationRule(name: "MaxIntrospectionDepth") { MaxIntrospectionDepthRule(context: $0) }
    private let context: ValidationContext
    let events: ValidationEvents = [.field, .leaveField]
    static let maxListDepth = 3
    private var checkedFragments: [String: Int] = [:]
    private var exceededFragments: [String: Int] = [:]
    /// While > 0, we are inside a reported field, whose subtree graphql-js skips.
    private var skippedFieldDepth = 0
    init(context: ValidationContext) { self.context = context }

    func enterField(_ field: Field) {
        if skippedFieldDepth > 0 {
            skippedFieldDepth += 1
            return
        }
        let name = field.name.value
        guard name == "__schema" || name == "__type" else { return }
        if exceedsDepth(field) {
            context.report("MaxIntrospectionDepth", "Maximum introspection depth exceeded", at: [field.loc])
            skippedFieldDepth = 1
        }
    }

    func leaveField(_ field: Field) {
        if skippedFieldDepth > 0 { skippedFieldDepth -= 1 }
    }

    private struct Frame {
        let selections: [Selection]
        var next: Int
        let depth: Int
        let fragment: String?
    }

    private func exceedsDepth(_ root: Field) -> Bool {
        var visited: [String: Int] = [:]
        var stack: [Frame] = [Frame(selections: [.field(root)], next: 0, depth: 0, fragment: nil)]
        while !stack.isEmpty {
            let top = stack.count - 1
            guard stack[top].next < stack[top].selections.count else {
                let frame = stack.removeLast()
                if let fragment = frame.fragment { checkedFragments[fragment] = frame.depth }
                continue
            }
            let selection = stack[top].selections[stack[top].next]
            stack[top].next += 1
            var depth = stack[top].depth
            switch selection {
            case .fragmentSpread(let spread):
                let name = spread.name.value
                if let exceeded = exceededFragments[name], exceeded <= depth {
                    markExceeded(stack)
                    return true
                }
                if (visited[name] ?? -1) >= depth || (checkedFragments[name] ?? -1) >= depth { continue }
                guard let fragment = context.fragment(named: name) else { continue }
                visited[name] = depth
                stack.append(Frame(selections: fragment.selectionSet.selections, next: 0, depth: depth, fragment: name))
            case .field(let field):
                switch field.name.value {
                case "fields", "interfaces", "possibleTypes", "inputFields":
                    depth += 1
                    if depth >= MaxIntrospectionDepthRule.maxListDepth {
                        markExceeded(stack)
                        return true
                    }
                default: break
                }
                if let sub = field.selectionSet {
                    stack.append(Frame(selections: sub.selections, next: 0, depth: depth, fragment: nil))
                }
            case .inlineFragment(let inline):
                stack.append(Frame(selections: inline.selectionSet.selections, next: 0, depth: depth, fragment: nil))
            }
        }
        return false
    }

    /// Records that every fragment being checked reaches the limit, innermost first so a
    /// fragment entered twice keeps the shallower depth.
    private func markExceeded(_ stack: [Frame]) {
        for frame in stack.reversed() {
            if let fragment = frame.fragment { exceededFragments[fragment] = frame.depth }
        }
    }
}
