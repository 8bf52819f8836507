/// No fragment cycles
///
/// A fragment must not spread itself, directly or through other fragments: the
/// selection would be infinite.
/// Spec §5.5.2.2 https://spec.graphql.org/September2025/#sec-Fragment-Spreads-Must-Not-Form-Cycles
///
/// Algorithm: one depth-first walk over the spread graph for the whole document (each
/// fragment is expanded once), keeping the current path of spreads; a spread of a
/// fragment already on the path closes a cycle, reported with the spreads along it. The
/// walk uses an explicit stack, so long fragment chains cannot overflow the call stack.
final class NoFragmentCyclesRule: ValidationVisitor {
    static let rule = ValidationRule(name: "NoFragmentCycles") { NoFragmentCyclesRule(context: $0) }
    private let context: ValidationContext
    let events: ValidationEvents = [.fragmentDefinition]
    private var visited = Set<String>()
    init(context: ValidationContext) { self.context = context }

    func enterFragmentDefinition(_ fragment: FragmentDefinition) {
        detectCycles(from: fragment.name.value)
    }

    private struct Frame {
        let name: String
        let spreads: [FragmentSpread]
        var next: Int
    }

    private func detectCycles(from root: String) {
        guard visited.insert(root).inserted, let rootIndex = context.fragmentIndexByName[root] else { return }
        var path: [FragmentSpread] = []
        var pathIndexByName: [String: Int] = [:]
        var stack: [Frame] = []
        func enter(_ name: String, _ index: Int) {
            let spreads = context.fragmentSpreads(ofFragment: index)
            guard !spreads.isEmpty else { return }
            pathIndexByName[name] = path.count
            stack.append(Frame(name: name, spreads: spreads, next: 0))
        }
        enter(root, rootIndex)
        while !stack.isEmpty {
            let top = stack.count - 1
            if stack[top].next == stack[top].spreads.count {
                pathIndexByName[stack[top].name] = nil
                stack.removeLast()
                if !path.isEmpty && !stack.isEmpty { path.removeLast() }
                continue
            }
            let spread = stack[top].spreads[stack[top].next]
            stack[top].next += 1
            let name = spread.name.value
            if let cycleStart = pathIndexByName[name] {
                // Past the error limit nothing more is reported: skip building long messages.
                if context.isAborted { return }
                let cycle = Array(path[cycleStart...]) + [spread]
                let via = cycle.dropLast().map { "\"\($0.name.value)\"" }.joined(separator: ", ")
                context.report(
                    "NoFragmentCycles",
                    "Cannot spread fragment \"\(name)\" within itself" + (via.isEmpty ? "." : " via \(via)."),
                    at: cycle.map(\.loc))
                continue
            }
            guard visited.insert(name).inserted, let index = context.fragmentIndexByName[name] else { continue }
            let depth = stack.count
            path.append(spread)
            enter(name, index)
            if stack.count == depth { path.removeLast() }
        }
    }
}
