// The structural half of OverlappingFieldsCanBeMerged: which comparisons cannot find a
// conflict, decided on shapes instead of field nodes, so that repetition costs nothing.
//
// A field's *shape* is what its comparisons depend on besides its place in the document:
// parent type, field name, arguments and the shape of its selection set (fragment spreads
// kept as names, inline fragments flattened). A selection set's shape is the set of
// (response name, field shape) it holds and the fragments it spreads. Shapes are interned
// bottom-up over the syntax tree, so `name` written 3,000 times is one shape, and 400 spreads
// of fragments with the same body are one shape each side.
//
// Expansion: the fields a selection set contributes to its response level, its own and
// those of every fragment it reaches through spreads at that level (fragment cycles
// included: the fragment graph is cut into strongly connected components and each
// component's expansion is the union of its members' own fields and its successors'
// expansions), as response name → sorted distinct field shapes.
//
// `mergeable(a, b, exclusive)` is graphql-js's `findConflict` on shapes: no conflict between
// any two fields of these shapes, whatever their nodes. Sub-selections are compared by their
// expansions, every pair of shapes under a shared response name. Spreads of fragments that
// spread each other make these comparisons recursive: a comparison met again while it is
// being decided is assumed to hold (a conflict is a finite path of comparisons, so it is
// found without that assumption), and a "holds" that leaned on such an assumption is kept
// only once the comparison it assumed holds too.
//
// The verdicts are conservative in one direction only: "mergeable" is exact, while "not
// mergeable" may also cover pairs graphql-js never compares (a field against itself, both
// sides spreading the same fragment). Every such pair sits in some selection set's
// expansion, where graphql-js does compare it, so "not mergeable" at a selection set means
// the document has a conflict somewhere. The rule compares node by node, as graphql-js
// does, only there; valid documents never get that far.
extension OverlappingFieldsCanBeMergedRule {
    struct FieldShape {
        let parentType: String?
        let parentIsObject: Bool
        let name: String
        /// Sorted `name:value` pairs; unique per node when argument names repeat.
        let argumentKey: String
        let type: TypeReference?
        /// What `doTypesConflict` looks at: list and non-null wrappers, and the leaf type's
        /// name or `*` for a composite one (nil without a type).
        let typeSignature: String?
        let isSimpleLeaf: Bool
        /// The selection set's shape, -1 without one.
        let subSet: Int
    }

    struct FieldShapeKey: Hashable {
        let parentType: String?
        let name: String
        let argumentKey: String
        let subSet: Int
    }

    struct SetShape {
        /// Response names in first-seen order with their distinct field shapes, sorted.
        let names: [String]
        let shapes: [[Int]]
        /// Fragment indices spread at this level, sorted, unknown names left out.
        let fragments: [Int]
    }

    /// A field with a selection set by its exact source text (alias, name, arguments,
    /// directives, selections) and the type it was collected under: equal keys give equal
    /// shapes, since every name in the text means the same thing under that type, fragment
    /// names included (they are document-wide).
    struct FieldTextKey: Hashable {
        let parentType: String?
        let text: ArraySlice<UInt8>
    }

    struct SetShapeKey: Hashable {
        let names: [String]
        let shapes: [[Int]]
        let fragments: [Int]
    }

    /// Response name → sorted distinct field shapes.
    typealias Expansion = [String: [Int]]

    /// What a structural comparison is about.
    enum MergeQuestion: Hashable {
        /// Two field shapes, parents exclusive or not.
        case fields(Int, Int, Bool)
        /// Every field of one expansion against every field of the other.
        case expansions(Int, Int, Bool)
        /// Every two fields of one expansion (each also against itself).
        case within(Int, Bool)
    }

    enum MergeVerdict {
        case holds
        case fails
        /// Holds if the comparison at this stack depth holds.
        case holdsAssuming(Int)
    }

    /// The interned shapes, expansions and verdicts of one validation run.
    struct MergeShapes {
        var fields: [FieldShape] = []
        var fieldIDs: [FieldShapeKey: Int] = [:]
        var sets: [SetShape] = []
        var setIDs: [SetShapeKey: Int] = [:]
        /// Shapes of fields written identically (see `FieldTextKey`).
        var fieldTextIDs: [FieldTextKey: Int] = [:]
        var expansions: [Expansion] = []
        var expansionIDs: [[String: [Int]]: Int] = [:]
        /// Expansion of the union of several expansions, by their sorted ids.
        var unions: [[Int]: Int] = [:]
        /// Expansion of each set shape, and of its own fields only.
        var setExpansion: [Int: Int] = [:]
        var ownExpansion: [Int: Int] = [:]
        /// Expansion of each fragment (its own fields and all it reaches), by fragment index.
        var fragmentExpansion: [Int]?
        var verdicts: [MergeQuestion: MergeVerdict] = [:]
        var onStack: [MergeQuestion: Int] = [:]
        var depth = 0
        /// The lowest stack depth an unfinished comparison assumed.
        var lowestAssumed = Int.max
        /// Verdicts stored as `holdsAssuming`, to settle when the assumed comparison ends.
        var tentative: [MergeQuestion] = []
        var uniqueArguments = 0
    }

    // MARK: - Interning

    /// The shape of a field occurrence (computed once per node and parent type).
    func fieldShape(_ details: FieldDetails) -> Int {
        if details.shape >= 0 { return details.shape }
        // A repeated sub-selection is recognised by its text before it is collected: thousands
        // of `friends { name }` cost one collection. Short texts only, so that deep nesting does
        // not hash its text once per level.
        var textKey: FieldTextKey?
        let loc = details.loc
        let source = context.source.utf8
        if details.node.selectionSet != nil, loc.start >= 0, loc.end <= source.count,
            loc.end - loc.start <= Self.maxFieldTextKeyLength
        {
            let key = FieldTextKey(parentType: details.parentType, text: source[loc.start..<loc.end])
            if let id = shapes.fieldTextIDs[key] {
                details.shape = id
                return id
            }
            textKey = key
        }
        defer { if let textKey { shapes.fieldTextIDs[textKey] = details.shape } }
        var subSet = -1
        if let collection = subCollection(details) { subSet = setShape(collection) }
        var argumentKey: String
        if details.node.arguments.isEmpty {
            argumentKey = ""
        } else {
            let pairs = argumentKeys(details)
            if Set(pairs.map(\.0)).count != pairs.count {
                // Repeated argument names compare by lookup, not as a set: keep such a node apart.
                shapes.uniqueArguments += 1
                argumentKey = "\u{0}\(shapes.uniqueArguments)"
            } else {
                argumentKey = pairs.sorted { $0.0 < $1.0 }.map { $0.0 + ":" + $0.1 }.joined(separator: ",")
            }
        }
        // `@stream` counts like the arguments: fields that differ in it cannot merge.
        if checksStream, let stream = details.streamKey { argumentKey += "\u{1}@stream(" + stream + ")" }
        let key = FieldShapeKey(
            parentType: details.parentType, name: details.name, argumentKey: argumentKey, subSet: subSet)
        if let id = shapes.fieldIDs[key] {
            details.shape = id
            return id
        }
        let id = shapes.fields.count
        shapes.fields.append(
            FieldShape(
                parentType: details.parentType, parentIsObject: details.parentIsObject, name: details.name,
                argumentKey: argumentKey, type: details.type, typeSignature: details.type.map(typeSignature),
                isSimpleLeaf: details.isSimpleLeaf, subSet: subSet))
        shapes.fieldIDs[key] = id
        details.shape = id
        return id
    }

    /// The shape of a collected selection set.
    func setShape(_ collection: FieldCollection) -> Int {
        if collection.shape >= 0 { return collection.shape }
        var shapesByName: [[Int]] = []
        for group in collection.groups {
            shapesByName.append(Array(Set(group.map { fieldShape($0) })).sorted())
        }
        let fragments = Array(Set(collection.fragments.filter { $0 >= 0 })).sorted()
        let key = SetShapeKey(names: collection.responseNames, shapes: shapesByName, fragments: fragments)
        if let id = shapes.setIDs[key] {
            collection.shape = id
            return id
        }
        let id = shapes.sets.count
        shapes.sets.append(SetShape(names: collection.responseNames, shapes: shapesByName, fragments: fragments))
        shapes.setIDs[key] = id
        collection.shape = id
        return id
    }

    private func typeSignature(_ type: TypeReference) -> String {
        switch type {
        case .list(let t): "[" + typeSignature(t) + "]"
        case .nonNull(let t): typeSignature(t) + "!"
        case .named(let name): context.schema.kind(of: name)?.isLeafType ?? false ? name : "*"
        }
    }

    private func intern(_ expansion: Expansion) -> Int {
        if let id = shapes.expansionIDs[expansion] { return id }
        let id = shapes.expansions.count
        shapes.expansions.append(expansion)
        shapes.expansionIDs[expansion] = id
        return id
    }

    private static func union(_ a: inout Expansion, _ b: Expansion) {
        for (name, shapes) in b {
            if let existing = a[name] {
                if existing != shapes { a[name] = Array(Set(existing).union(shapes)).sorted() }
            } else {
                a[name] = shapes
            }
        }
    }

    private func own(_ set: SetShape) -> Expansion {
        var result: Expansion = [:]
        for (i, name) in set.names.enumerated() { result[name] = set.shapes[i] }
        return result
    }

    /// Expansion id of a set shape's own fields (no fragments).
    func ownExpansion(ofSet id: Int) -> Int {
        if let cached = shapes.ownExpansion[id] { return cached }
        let result = intern(own(shapes.sets[id]))
        shapes.ownExpansion[id] = result
        return result
    }

    /// Expansion id of a set shape: its own fields and all its spreads reach.
    func expansion(ofSet id: Int) -> Int {
        if let cached = shapes.setExpansion[id] { return cached }
        let set = shapes.sets[id]
        let result: Int
        if set.fragments.isEmpty {
            result = ownExpansion(ofSet: id)
        } else {
            let byFragment = fragmentExpansions()
            var expansion = own(set)
            // Fragments with the same body share an expansion: each is merged in once.
            var merged = Set<Int>()
            for fragment in set.fragments where merged.insert(byFragment[fragment]).inserted {
                Self.union(&expansion, shapes.expansions[byFragment[fragment]])
            }
            result = intern(expansion)
        }
        shapes.setExpansion[id] = result
        return result
    }

    /// Expansion id of the fragment at `index`.
    func expansion(ofFragment index: Int) -> Int { fragmentExpansions()[index] }

    /// Every fragment's expansion, by strongly connected components of the spread graph
    /// (spreads at the fragment's own response level), successors first (Tarjan's
    /// algorithm with an explicit stack).
    private func fragmentExpansions() -> [Int] {
        if let cached = shapes.fragmentExpansion { return cached }
        let count = context.fragmentDefinitions.count
        let setOf = (0..<count).map { setShape(collectFragmentFields($0)) }
        var index = [Int](repeating: -1, count: count)
        var low = [Int](repeating: 0, count: count)
        var onStack = [Bool](repeating: false, count: count)
        var stack: [Int] = []
        var result = [Int](repeating: -1, count: count)
        var next = 0
        for root in 0..<count where index[root] < 0 {
            var frames: [(node: Int, edge: Int)] = [(root, 0)]
            index[root] = next
            low[root] = next
            next += 1
            stack.append(root)
            onStack[root] = true
            while let (node, edge) = frames.last {
                let edges = shapes.sets[setOf[node]].fragments
                if edge < edges.count {
                    frames[frames.count - 1].edge += 1
                    let target = edges[edge]
                    if index[target] < 0 {
                        index[target] = next
                        low[target] = next
                        next += 1
                        stack.append(target)
                        onStack[target] = true
                        frames.append((target, 0))
                    } else if onStack[target] {
                        low[node] = min(low[node], index[target])
                    }
                    continue
                }
                frames.removeLast()
                if let parent = frames.last { low[parent.node] = min(low[parent.node], low[node]) }
                guard low[node] == index[node] else { continue }
                // `node` roots a component: its members are on the stack above it.
                var members: [Int] = []
                while let member = stack.popLast() {
                    onStack[member] = false
                    members.append(member)
                    if member == node { break }
                }
                if members.count == 1 && shapes.sets[setOf[node]].fragments.isEmpty {
                    // A fragment that spreads nothing: its expansion is its own fields', shared
                    // by every fragment of the same shape.
                    result[node] = ownExpansion(ofSet: setOf[node])
                    continue
                }
                var expansion: Expansion = [:]
                var merged = Set<Int>()
                for member in members {
                    Self.union(&expansion, own(shapes.sets[setOf[member]]))
                    for target in shapes.sets[setOf[member]].fragments
                    where result[target] >= 0 && merged.insert(result[target]).inserted {
                        Self.union(&expansion, shapes.expansions[result[target]])
                    }
                }
                let id = intern(expansion)
                for member in members { result[member] = id }
            }
        }
        shapes.fragmentExpansion = result
        return result
    }

    /// Expansion id of the union of expansions.
    private func union(of ids: [Int]) -> Int {
        let key = Array(Set(ids)).sorted()
        if key.count == 1 { return key[0] }
        if let cached = shapes.unions[key] { return cached }
        var expansion: Expansion = [:]
        for id in key { Self.union(&expansion, shapes.expansions[id]) }
        let result = intern(expansion)
        shapes.unions[key] = result
        return result
    }

    // MARK: - Verdicts

    /// Whether no two fields of the expansion under one response name conflict (each
    /// shape also against itself): the whole selection set is then free of conflicts.
    func mergeableWithin(expansion id: Int) -> Bool {
        decide(.within(id, false))
    }

    /// Whether fields of shapes `a` and `b` can never conflict (parents mutually exclusive
    /// when `exclusive`).
    func mergeable(_ a: Int, _ b: Int, _ exclusive: Bool) -> Bool {
        decide(.fields(min(a, b), max(a, b), exclusive))
    }

    /// Whether no field of one expansion conflicts with a field of the other.
    func mergeableBetween(_ e1: Int, _ e2: Int, _ exclusive: Bool) -> Bool {
        decide(.expansions(min(e1, e2), max(e1, e2), exclusive))
    }

    // The recursion below runs as deep as selections nest through fragments, so each of
    // its frames is kept small: the bookkeeping lives in functions that are not inlined.

    private func decide(_ question: MergeQuestion) -> Bool {
        let question = Self.normalized(question)
        if let known = recall(question) { return known }
        let frame = begin(question)
        let holds: Bool
        switch question {
        case .fields(let a, let b, let exclusive): holds = fieldsHold(a, b, exclusive)
        case .expansions(let a, let b, let exclusive): holds = expansionsHold(a, b, exclusive)
        case .within(let id, let exclusive): holds = withinHolds(id, exclusive)
        }
        settle(question, frame, holds)
        return holds
    }

    private static func normalized(_ question: MergeQuestion) -> MergeQuestion {
        if case .fields(let a, let b, let e) = question, a > b { return .fields(b, a, e) }
        return question
    }

    /// The verdict already known, or assumed because the question is being decided.
    @inline(never)
    private func recall(_ question: MergeQuestion) -> Bool? {
        switch shapes.verdicts[question] {
        case .holds?: return true
        case .fails?: return false
        case .holdsAssuming(let depth)?:
            shapes.lowestAssumed = min(shapes.lowestAssumed, depth)
            return true
        case nil: break
        }
        if let depth = shapes.onStack[question] {
            shapes.lowestAssumed = min(shapes.lowestAssumed, depth)
            return true
        }
        return nil
    }

    private struct DecisionFrame {
        let depth: Int
        let outerLowest: Int
        let tentativeStart: Int
    }

    @inline(never)
    private func begin(_ question: MergeQuestion) -> DecisionFrame {
        let frame = DecisionFrame(
            depth: shapes.depth, outerLowest: shapes.lowestAssumed, tentativeStart: shapes.tentative.count)
        shapes.onStack[question] = frame.depth
        shapes.depth += 1
        shapes.lowestAssumed = Int.max
        return frame
    }

    @inline(never)
    private func settle(_ question: MergeQuestion, _ frame: DecisionFrame, _ holds: Bool) {
        shapes.depth -= 1
        shapes.onStack[question] = nil
        let start = frame.tentativeStart
        if !holds {
            // A failure is a concrete conflict: it stands. What held on assumptions since
            // this question began may have leaned on it: forget those.
            for q in shapes.tentative[start...] { shapes.verdicts[q] = nil }
            shapes.tentative.removeSubrange(start...)
            shapes.verdicts[question] = .fails
        } else if shapes.lowestAssumed >= frame.depth {
            // Every assumption made below was about this question or deeper ones: settled.
            for q in shapes.tentative[start...] { shapes.verdicts[q] = .holds }
            shapes.tentative.removeSubrange(start...)
            shapes.verdicts[question] = .holds
            shapes.lowestAssumed = Int.max
        } else {
            // Still leaning on an unfinished question: so does all that leaned on this one.
            let assumed = MergeVerdict.holdsAssuming(shapes.lowestAssumed)
            for q in shapes.tentative[start...] { shapes.verdicts[q] = assumed }
            shapes.verdicts[question] = assumed
            shapes.tentative.append(question)
        }
        shapes.lowestAssumed = min(frame.outerLowest, shapes.lowestAssumed)
    }

    /// graphql-js `findConflict` on shapes.
    private func fieldsHold(_ a: Int, _ b: Int, _ parentsExclusive: Bool) -> Bool {
        guard let next = fieldsAgree(a, b, parentsExclusive) else { return false }
        guard let (e1, e2, exclusive) = next else { return true }
        return mergeableBetween(e1, e2, exclusive)
    }

    /// Names, arguments and types of two field shapes: nil when they conflict, else the
    /// sub-selection comparison still to make (if both have one).
    @inline(never)
    private func fieldsAgree(_ a: Int, _ b: Int, _ parentsExclusive: Bool) -> (Int, Int, Bool)?? {
        let f1 = shapes.fields[a]
        let f2 = shapes.fields[b]
        let exclusive = parentsExclusive || (f1.parentIsObject && f2.parentIsObject && f1.parentType != f2.parentType)
        let sameName = f1.name == f2.name
        let sameDefinition = sameName && f1.parentType == f2.parentType
        if f1.isSimpleLeaf && f2.isSimpleLeaf && sameName && Self.identicalTypes(f1.type, f2.type, sameDefinition) {
            return .some(nil)
        }
        if !exclusive && (!sameName || f1.argumentKey != f2.argumentKey) { return nil }
        if let t1 = f1.type, let t2 = f2.type, typesConflict(t1, t2, sameDefinition) { return nil }
        if f1.subSet >= 0 && f2.subSet >= 0 {
            return .some((expansion(ofSet: f1.subSet), expansion(ofSet: f2.subSet), exclusive))
        }
        return .some(nil)
    }

    private func expansionsHold(_ e1: Int, _ e2: Int, _ exclusive: Bool) -> Bool {
        let pairs = sharedShapePairs(e1, e2)
        for i in 0..<pairs.count where !mergeable(pairs[i].0, pairs[i].1, exclusive) { return false }
        return true
    }

    /// Every pair of shapes of two expansions under a shared response name.
    @inline(never)
    private func sharedShapePairs(_ e1: Int, _ e2: Int) -> [(Int, Int)] {
        var first = shapes.expansions[e1]
        var second = shapes.expansions[e2]
        if first.count > second.count { swap(&first, &second) }
        var pairs: [(Int, Int)] = []
        for (name, shapes1) in first {
            guard let shapes2 = second[name] else { continue }
            for s1 in shapes1 { for s2 in shapes2 { pairs.append((s1, s2)) } }
        }
        return pairs
    }

    /// Every response group of the expansion holds.
    private func withinHolds(_ id: Int, _ exclusive: Bool) -> Bool {
        let groups = groupsOf(id)
        for i in 0..<groups.count where !groupHolds(groups[i], exclusive) { return false }
        return true
    }

    @inline(never)
    private func groupsOf(_ id: Int) -> [[Int]] {
        Array(shapes.expansions[id].values)
    }

    private func groupHolds(_ group: [Int], _ exclusive: Bool) -> Bool {
        guard let questions = groupAgrees(group, exclusive) else { return false }
        for i in 0..<questions.count where !decide(.within(questions[i].0, questions[i].1)) { return false }
        return true
    }

    /// Whether every two shapes of one response group (each also against itself) can never
    /// conflict, checked at once instead of pair by pair: names and arguments agree where
    /// parents are not exclusive, types agree, and the union of the sub-selections holds
    /// within (graphql-java's and apollo-rs's merge-then-check, a superset of the pairs
    /// graphql-js compares: the extra ones are pairs inside one sub-selection, which that
    /// selection set's own check covers). Returns nil on a conflict, else the "within"
    /// questions about sub-selections still to decide.
    @inline(never)
    private func groupAgrees(_ group: [Int], _ exclusive: Bool) -> [(Int, Bool)]? {
        let fields = group.map { shapes.fields[$0] }
        if fields.count == 1 && fields[0].subSet < 0 { return [] }
        if !exclusive {
            if fields.contains(where: { !$0.parentIsObject }) {
                let first = fields[0]
                if fields.contains(where: { $0.name != first.name || $0.argumentKey != first.argumentKey }) {
                    return nil
                }
            } else {
                // Fields of distinct object types never apply together.
                var byParent: [String: (String, String)] = [:]
                for field in fields {
                    let key = (field.name, field.argumentKey)
                    if let seen = byParent[field.parentType ?? ""] {
                        if seen != key { return nil }
                    } else {
                        byParent[field.parentType ?? ""] = key
                    }
                }
            }
        }
        var signature: String?
        for field in fields {
            guard let s = field.typeSignature else { continue }
            if let signature, signature != s { return nil }
            signature = s
        }
        let withSubs = fields.filter { $0.subSet >= 0 }
        guard !withSubs.isEmpty else { return [] }
        let all = union(of: withSubs.map { expansion(ofSet: $0.subSet) })
        let parents = Set(withSubs.map { $0.parentType ?? "" })
        if exclusive || parents.count == 1 || withSubs.contains(where: { !$0.parentIsObject }) {
            return [(all, exclusive)]
        }
        var questions: [(Int, Bool)] = []
        for parent in parents.sorted() {
            let subs = withSubs.filter { ($0.parentType ?? "") == parent }.map { expansion(ofSet: $0.subSet) }
            questions.append((union(of: subs), false))
        }
        // Across object types the sub-selections still merge, as exclusive comparisons.
        questions.append((all, true))
        return questions
    }
}
