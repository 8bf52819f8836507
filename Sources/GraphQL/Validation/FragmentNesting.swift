// A guard run before the rules: how deep selection sets nest once fragment spreads are
// followed. The parser bounds nesting inside one definition only; a chain of fragments
// can nest without bound, and several rules recurse along such chains.

/// Selection nesting through fragment spreads, per definition, as graphql-core 3.2.14's
/// `FragmentNestingVisitor` computes it (a spread counts one level, a cycle adds nothing):
/// a definition nesting deeper than `maxNestingDepth` stops validation with a "Validation
/// aborted" error located at that definition, before any rule walks it, so that no rule's
/// recursion can exhaust the stack.
struct FragmentNesting {
    /// Far beyond what a document the server accepts can reach (15,000 tokens make at most
    /// 5,000 levels: every level costs a name and two braces), and within the stack: the
    /// deepest recursion along such a chain (OverlappingFieldsCanBeMerged's) was measured
    /// at this depth on the 8 MiB stack every thread here gets (main, cooperative pool,
    /// libmicrohttpd's). graphql-core stops at 200; graphql-js overflows its stack
    /// somewhere past 2,000.
    static let maxNestingDepth = 10_000

    private let context: ValidationContext
    /// Fragment name → nesting depth including what its spreads add (cycles add nothing).
    private var depths: [String: Int] = [:]
    private var computed = false

    init(context: ValidationContext) {
        self.context = context
    }

    /// The nesting depth of a selection set (1 for a flat one) and its spreads with the
    /// depth at which each occurs.
    private static func nesting(of selectionSet: SelectionSet) -> (depth: Int, spreads: [(String, Int)]) {
        var maxDepth = 0
        var spreads: [(String, Int)] = []
        var stack: [(SelectionSet, Int)] = [(selectionSet, 1)]
        while let (set, depth) = stack.popLast() {
            maxDepth = max(maxDepth, depth)
            for selection in set.selections {
                switch selection {
                case .fragmentSpread(let s): spreads.append((s.name.value, depth))
                case .field(let f): if let sub = f.selectionSet { stack.append((sub, depth + 1)) }
                case .inlineFragment(let i): stack.append((i.selectionSet, depth + 1))
                }
            }
        }
        return (maxDepth, spreads)
    }

    private func depth(_ own: Int, _ spreads: [(String, Int)]) -> Int {
        var result = own
        for (name, spreadDepth) in spreads { result = max(result, spreadDepth + (depths[name] ?? 0)) }
        return result
    }

    /// Depth of every fragment, by an explicit-stack depth-first walk over the spreads.
    private mutating func computeFragmentDepths() {
        computed = true
        var nestings: [String: (depth: Int, spreads: [(String, Int)])] = [:]
        for (name, index) in context.fragmentIndexByName {
            nestings[name] = FragmentNesting.nesting(of: context.fragmentDefinitions[index].selectionSet)
        }
        for root in nestings.keys.sorted() where depths[root] == nil {
            var path: [(name: String, next: Int)] = [(root, 0)]
            var onPath: Set<String> = [root]
            while let top = path.last {
                let spreads = nestings[top.name]?.spreads ?? []
                var descended = false
                var i = top.next
                while i < spreads.count {
                    let spread = spreads[i].0
                    i += 1
                    if nestings[spread] != nil && depths[spread] == nil && !onPath.contains(spread) {
                        path[path.count - 1].next = i
                        path.append((spread, 0))
                        onPath.insert(spread)
                        descended = true
                        break
                    }
                }
                if !descended {
                    path.removeLast()
                    onPath.remove(top.name)
                    let n = nestings[top.name] ?? (0, [])
                    depths[top.name] = depth(n.depth, n.spreads)
                }
            }
        }
    }

    /// Whether the operation nests deeper than the limit through its fragments.
    mutating func exceedsLimit(operation: OperationDefinition) -> Bool {
        guard !context.fragmentDefinitions.isEmpty else { return false }
        if !computed { computeFragmentDepths() }
        let n = FragmentNesting.nesting(of: operation.selectionSet)
        return depth(n.depth, n.spreads) > FragmentNesting.maxNestingDepth
    }

    /// Whether the fragment definition at `index` nests deeper than the limit.
    mutating func exceedsLimit(fragmentAt index: Int) -> Bool {
        if !computed { computeFragmentDepths() }
        return (depths[context.fragmentDefinitions[index].name.value] ?? 0) > FragmentNesting.maxNestingDepth
    }

    /// Stops validation at `definition` (its name, if any, and its location). The error is
    /// tagged with the first specified rule, as the conformance kit tags graphql-core's
    /// (which carries no rule), since every rule run alone stops the same way.
    func abort(at definition: Location, named name: String?) {
        let what = name.map { "\"\($0)\"" } ?? "the anonymous operation"
        context.abort(
            "ExecutableDefinitions",
            "Validation aborted: the selections of \(what) nest more than \(FragmentNesting.maxNestingDepth) levels "
                + "deep through fragment spreads (the validation nesting limit).",
            at: [definition])
    }
}
