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
    /// Fragment index → nesting depth including what its spreads add (cycles add nothing),
    /// -1 until computed; only the index a name resolves to (the last definition) is used.
    private var depths: [Int] = []
    private var computed = false

    init(context: ValidationContext) {
        self.context = context
    }

    /// The nesting depth of a selection set (1 for a flat one) and its spreads with the
    /// depth at which each occurs, as fragment indices (-1 for unknown names).
    private func nesting(of selectionSet: SelectionSet) -> (depth: Int, spreads: [(Int, Int)]) {
        var maxDepth = 0
        var spreads: [(Int, Int)] = []
        var stack: [(SelectionSet, Int)] = [(selectionSet, 1)]
        while let (set, depth) = stack.popLast() {
            maxDepth = max(maxDepth, depth)
            for selection in set.selections {
                switch selection {
                case .fragmentSpread(let s): spreads.append((context.fragmentIndexByName[s.name.value] ?? -1, depth))
                case .field(let f): if let sub = f.selectionSet { stack.append((sub, depth + 1)) }
                case .inlineFragment(let i): stack.append((i.selectionSet, depth + 1))
                }
            }
        }
        return (maxDepth, spreads)
    }

    private func depth(_ own: Int, _ spreads: [(Int, Int)]) -> Int {
        var result = own
        for (index, spreadDepth) in spreads where index >= 0 {
            result = max(result, spreadDepth + max(depths[index], 0))
        }
        return result
    }

    /// Depth of every fragment, by an explicit-stack depth-first walk over the spreads,
    /// roots taken in name order (in a cycle the depth found depends on where the walk
    /// entered it).
    private mutating func computeFragmentDepths() {
        computed = true
        let count = context.fragmentDefinitions.count
        depths = [Int](repeating: -1, count: count)
        var nestings = [(depth: Int, spreads: [(Int, Int)])?](repeating: nil, count: count)
        var roots: [(String, Int)] = []
        for (name, index) in context.fragmentIndexByName {
            nestings[index] = nesting(of: context.fragmentDefinitions[index].selectionSet)
            roots.append((name, index))
        }
        roots.sort { $0.0 < $1.0 }
        var onPath = [Bool](repeating: false, count: count)
        for (_, root) in roots where depths[root] < 0 {
            var path: [(index: Int, next: Int)] = [(root, 0)]
            onPath[root] = true
            while let top = path.last {
                let spreads = nestings[top.index]?.spreads ?? []
                var descended = false
                var i = top.next
                while i < spreads.count {
                    let spread = spreads[i].0
                    i += 1
                    if spread >= 0 && depths[spread] < 0 && !onPath[spread] {
                        path[path.count - 1].next = i
                        path.append((spread, 0))
                        onPath[spread] = true
                        descended = true
                        break
                    }
                }
                if !descended {
                    path.removeLast()
                    onPath[top.index] = false
                    let n = nestings[top.index] ?? (0, [])
                    depths[top.index] = depth(n.depth, n.spreads)
                }
            }
        }
    }

    /// Whether the operation nests deeper than the limit through its fragments.
    mutating func exceedsLimit(operation: OperationDefinition) -> Bool {
        guard !context.fragmentDefinitions.isEmpty else { return false }
        if !computed { computeFragmentDepths() }
        let n = nesting(of: operation.selectionSet)
        return depth(n.depth, n.spreads) > FragmentNesting.maxNestingDepth
    }

    /// Whether the fragment definition at `index` nests deeper than the limit.
    mutating func exceedsLimit(fragmentAt index: Int) -> Bool {
        if !computed { computeFragmentDepths() }
        guard let resolved = context.fragmentIndexByName[context.fragmentDefinitions[index].name.value] else {
            return false
        }
        return max(depths[resolved], 0) > FragmentNesting.maxNestingDepth
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
