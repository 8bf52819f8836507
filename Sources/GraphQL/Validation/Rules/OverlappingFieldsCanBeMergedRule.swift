/// Overlapping fields can be merged
///
/// Fields that end up under the same response name (after following fragments) must be
/// mergeable: the same field with the same arguments (unless their parents are distinct
/// object types, so that they never apply together), shapes of return types that agree,
/// and sub-selections that merge in turn. With incremental delivery (a schema with `@stream`)
/// they must also agree on `@stream`: both without, or both with the same arguments (the
/// incremental delivery RFC's SameStreamDirective; graphql-js 17 also refuses two identical
/// `@stream`s, the RFC does not).
/// Spec §5.3.2 https://spec.graphql.org/September2025/#sec-Field-Selection-Merging
///
/// Algorithm: first on shapes, then, only where a conflict exists, graphql-js's.
///
/// - Shapes (FieldMergeShapes.swift): identical fields, selection sets and fragment
///   bodies are interned once, and whether two shapes can conflict is decided once per
///   pair of shapes, so the cost grows with the number of distinct (response name, field,
///   arguments, sub-selection) groups, not with the pairs of field nodes. A selection set
///   whose expansion (its fields and all its spreads reach) has no conflicting pair of
///   shapes needs nothing more: that is every selection set of a valid document.
/// - Otherwise the selection set is compared node by node as graphql-js does (graphql-core
///   3.2.14's variant, the behaviour of our conformance oracle), so that errors, their
///   order and locations are graphql-js's: each selection set of the document (not those
///   of inline fragments, whose fields belong to the enclosing set) is collected once per
///   parent type into fields grouped by response name plus the fragments it spreads;
///   fields are compared "within" a collection only there, then "between" the collection
///   and each spread fragment (and the fragments those spread), and each pair of spread
///   fragments. Two fields under one response name conflict when, unless their parents
///   are mutually exclusive, names or arguments differ; or when their types differ in
///   list/non-null shape or leaf type; otherwise their sub-selections are compared
///   "between" as above. Memos: a collection remembers which fragments it was compared
///   with, a pair set remembers compared fragment pairs, a field pair its name/argument
///   verdict. Every step whose shapes cannot conflict is skipped, which changes no error:
///   such a step finds nothing, and what it would have memoised finds nothing either.
/// - Comparison stops once the selection set has more conflicts than validation can still
///   report (`maxErrors`); reasons and location lists are capped in length (graphql-core).
/// - A guard for documents that conflict anyway: comparing one selection set node by node
///   may take at most `maxNodeComparisons` steps, then validation stops with an error
///   naming that limit and the selection set. Valid documents never compare node by node.
final class OverlappingFieldsCanBeMergedRule: ValidationVisitor {
    static let rule = ValidationRule(name: "OverlappingFieldsCanBeMerged") {
        OverlappingFieldsCanBeMergedRule(context: $0)
    }
    static let name = "OverlappingFieldsCanBeMerged"
    /// Steps (field pairs, field-fragment and fragment pairs) one selection set may take
    /// when compared node by node. Only selection sets with a conflict get there; graphql-js
    /// needs about a second for this many on our machines (thousands of repetitions of a
    /// conflicting field), we about 50 ms.
    static let maxNodeComparisons = 2_000_000
    /// Steps the whole document may spend comparing node by node before anything is known
    /// to conflict: enough for real documents (the W2 app query needs about 150, 266 of graphql-core's units), so
    /// that these never pay for shapes. A selection set that needs more is compared again
    /// on shapes, its trial undone; one whose pairs alone outnumber what is left (`leastSteps`)
    /// goes to shapes without a trial.
    static let trialSteps = 4_000
    /// Fields whose text is at most this many bytes are recognised by it (FieldMergeShapes.swift).
    static let maxFieldTextKeyLength = 1024
    static let maxConflictDetailLength = 1000
    static let maxConflictNodes = 20

    let context: ValidationContext
    let events: ValidationEvents = [.selectionSet]
    // Hot bookkeeping read and written on every comparison, never while another access is
    // open, so the dynamic exclusivity checks are left out.
    @exclusivity(unchecked) private var remainingSteps = 0
    @exclusivity(unchecked) private var remainingTrialSteps = OverlappingFieldsCanBeMergedRule.trialSteps
    /// Whether comparisons skip what shapes show cannot conflict (false during a trial).
    @exclusivity(unchecked) private var usesShapes = false
    /// During a trial, the memo entries it changed, to put back when it is abandoned.
    @exclusivity(unchecked) private var journal: [MemoChange]?
    @exclusivity(unchecked) var shapes = MergeShapes()
    /// Collections by parent type and selection set (graphql-core keys by node identity;
    /// a parsed selection set is identified by its byte range).
    @exclusivity(unchecked) private var collected: [CollectionKey: FieldCollection] = [:]
    /// The collection of each fragment, by fragment index (a shortcut into `collected`).
    @exclusivity(unchecked) private var fragmentCollections: [FieldCollection?]
    @exclusivity(unchecked) private var comparedFragmentPairs: FragmentPairSet
    @exclusivity(unchecked) private var nextCollectionID = 0
    /// The schema has `@stream`: fields under one response name must agree on it.
    let checksStream: Bool

    init(context: ValidationContext) {
        self.context = context
        checksStream = context.schema.directive("stream") != nil
        fragmentCollections = Array(repeating: nil, count: context.fragmentDefinitions.count)
        comparedFragmentPairs = FragmentPairSet(count: context.fragmentDefinitions.count)
    }

    private struct StepLimitReached: Error {}

    private enum MemoChange {
        case comparedFragment(FieldCollection, Int, Bool?)
        case fragmentPair(Int, Int, UInt8)
    }

    private struct CollectionKey: Hashable {
        let parentType: String?
        let start: Int
        let end: Int
    }

    /// One field occurrence, with its definition on the parent type it was collected under.
    final class FieldDetails {
        let parentType: String?
        let parentIsObject: Bool
        let node: Field
        /// The field's name and place, kept apart so comparisons do not copy the node.
        let name: String
        let loc: Location
        let hasArguments: Bool
        let type: TypeReference?
        let isSimpleLeaf: Bool
        /// The arguments of the node's `@stream` as a comparison key ("" for none); nil without
        /// `@stream`.
        let streamKey: String?
        /// The collection of this field's own selection set, once needed.
        @exclusivity(unchecked) var subCollection: FieldCollection?
        /// Argument name → comparison key, and argument names in order; built on first use.
        var argumentKeys: [(String, String)]?
        var argumentKeyByName: [String: String] = [:]
        /// Name/argument verdicts against other fields with arguments: "" when they match.
        var comparisons: [ObjectIdentifier: String] = [:]
        /// Interned shape (FieldMergeShapes.swift), -1 until needed.
        @exclusivity(unchecked) var shape = -1

        init(parentType: String?, parentIsObject: Bool, node: Field, type: TypeReference?) {
            self.parentType = parentType
            self.parentIsObject = parentIsObject
            self.node = node
            self.name = node.name.value
            self.loc = node.loc
            self.hasArguments = !node.arguments.isEmpty
            self.type = type
            self.streamKey = node.directives.first { $0.name.value == "stream" }.map { stream in
                stream.arguments.map { $0.name.value + ":" + OverlappingFieldsCanBeMergedRule.valueKey($0.value) }
                    .sorted()
                    .joined(separator: ",")
            }
            // A leaf with `@stream` is not simple: its stream must be compared.
            self.isSimpleLeaf = node.arguments.isEmpty && node.selectionSet == nil && streamKey == nil
        }
    }

    /// The fields of a selection set grouped by response name, and the fragments it spreads
    /// (as fragment indices, -1 for unknown names).
    final class FieldCollection {
        let id: Int
        init(id: Int) { self.id = id }
        /// Interned shape (FieldMergeShapes.swift), -1 until needed.
        @exclusivity(unchecked) var shape = -1
        // Written while collecting, then only read: no dynamic exclusivity checks needed.
        @exclusivity(unchecked) var responseNames: [String] = []
        @exclusivity(unchecked) var groups: [[FieldDetails]] = []
        /// Response name → index in `groups`, built only for large collections.
        @exclusivity(unchecked) var groupIndex: [String: Int]?
        @exclusivity(unchecked) var fragments: [Int] = []
        @exclusivity(unchecked) var comparedFragments: [Int: Bool] = [:]
        var isEmpty: Bool { responseNames.isEmpty }

        func group(_ name: String) -> [FieldDetails]? {
            if let groupIndex { return groupIndex[name].map { groups[$0] } }
            for (i, n) in responseNames.enumerated() where n == name { return groups[i] }
            return nil
        }

        func append(_ details: FieldDetails, as name: String) {
            if let i = groupIndex?[name] ?? (groupIndex == nil ? responseNames.firstIndex(of: name) : nil) {
                groups[i].append(details)
                return
            }
            responseNames.append(name)
            groups.append([details])
            if groupIndex != nil {
                groupIndex?[name] = groups.count - 1
            } else if responseNames.count > 16 {
                var index: [String: Int] = [:]
                for (i, n) in responseNames.enumerated() { index[n] = i }
                groupIndex = index
            }
        }
    }

    /// Fragment pairs already compared, with whether that comparison was for mutually
    /// exclusive parents (graphql-js `PairSet`, ordered as added).
    private struct FragmentPairSet {
        private let count: Int
        /// 0: not compared; 1: compared as exclusive; 2: compared as not exclusive.
        private var flat: [UInt8]
        private var sparse: [Int: UInt8] = [:]

        init(count: Int) {
            self.count = count
            flat = count <= 1024 ? [UInt8](repeating: 0, count: count * count) : []
        }

        func state(_ a: Int, _ b: Int) -> UInt8 {
            flat.isEmpty ? sparse[a * count + b] ?? 0 : flat[a * count + b]
        }

        func has(_ a: Int, _ b: Int, exclusive: Bool) -> Bool {
            func ordered(_ x: Int, _ y: Int) -> Bool {
                let s = state(x, y)
                // A non-exclusive comparison covers both kinds; an exclusive one only exclusive asks.
                return s != 0 && (exclusive || s == 2)
            }
            return ordered(a, b) || ordered(b, a)
        }

        mutating func add(_ a: Int, _ b: Int, exclusive: Bool) {
            restore(a, b, exclusive ? 1 : 2)
        }

        mutating func restore(_ a: Int, _ b: Int, _ value: UInt8) {
            if flat.isEmpty { sparse[a * count + b] = value } else { flat[a * count + b] = value }
        }
    }

    private struct Conflict {
        let responseName: String
        let reason: String
        let fields1: [Location]
        let fields2: [Location]
    }

    // MARK: - Entry

    func enterSelectionSet(_ selectionSet: SelectionSet, owner: SelectionSetOwner) {
        guard owner != .inlineFragment else { return }
        let selections = selectionSet.selections
        if selections.count <= 1 {
            guard case .inlineFragment = selections.first else { return }
        }
        do {
            let conflicts = try findConflictsWithinSelectionSet(context.typeInfo.parentType, selectionSet)
            for conflict in conflicts {
                context.report(
                    Self.name,
                    "Fields \"\(Self.abbreviate(conflict.responseName))\" conflict because \(conflict.reason). "
                        + "Use different aliases on the fields to fetch both if this was intentional.",
                    at: conflict.fields1 + conflict.fields2)
            }
        } catch {
            context.abort(
                Self.name,
                "Validation aborted: the selection set has conflicting fields, and comparing them field by field "
                    + "needs more than \(Self.maxNodeComparisons) steps (OverlappingFieldsCanBeMerged's limit).",
                at: [selectionSet.loc])
        }
    }

    private func spend(_ cost: Int) throws(StepLimitReached) {
        remainingSteps -= cost
        if remainingSteps < 0 { throw StepLimitReached() }
    }

    // MARK: - Comparisons

    private func findConflictsWithinSelectionSet(_ parentType: String?, _ selectionSet: SelectionSet)
        throws(StepLimitReached) -> [Conflict]
    {
        let collection = collectFields(parentType, selectionSet)
        // Conflicts past this many could no longer be reported (`maxErrors`).
        let limit = context.remainingErrorCapacity + 1
        if remainingTrialSteps > 0 && Self.leastSteps(collection) <= remainingTrialSteps {
            // A trial, node by node as graphql-js: real documents end here.
            remainingSteps = remainingTrialSteps
            usesShapes = false
            journal = []
            defer { journal = nil }
            do {
                let conflicts = try compareWithin(collection, limit)
                remainingTrialSteps = remainingSteps
                return conflicts
            } catch {
                remainingTrialSteps = 0
                for change in (journal ?? []).reversed() {
                    switch change {
                    case .comparedFragment(let c, let fragment, let previous): c.comparedFragments[fragment] = previous
                    case .fragmentPair(let a, let b, let previous): comparedFragmentPairs.restore(a, b, previous)
                    }
                }
            }
        }
        // No two shapes of this response level can conflict: nor can any two of its fields.
        if mergeableWithin(expansion: expansion(ofSet: setShape(collection))) { return [] }
        remainingSteps = Self.maxNodeComparisons
        usesShapes = true
        return try compareWithin(collection, limit)
    }

    /// The fewest steps comparing the collection node by node takes without finding a
    /// conflict (its pairs of fields under one response name, and of field set and spread
    /// fragments): a set that needs more than the trial allowance goes to shapes at once,
    /// instead of spending the allowance to learn that.
    private static func leastSteps(_ collection: FieldCollection) -> Int {
        var steps = 0
        for fields in collection.groups { steps += fields.count * (fields.count - 1) / 2 }
        let fragments = collection.fragments.count
        return steps + fragments * (fragments + 1) / 2
    }

    /// graphql-js `findConflictsWithinSelectionSet` for a collection, stopping at `limit`
    /// conflicts.
    private func compareWithin(_ collection: FieldCollection, _ limit: Int) throws(StepLimitReached) -> [Conflict] {
        var conflicts: [Conflict] = []
        // (A) Within the collection's own fields: the only place fields of one set meet.
        for (groupIndex, fields) in collection.groups.enumerated() where fields.count > 1 {
            let name = collection.responseNames[groupIndex]
            try forEachPairWithin(fields) { (i: Int, j: Int) throws(StepLimitReached) -> Bool in
                if let c = try findConflict(false, name, fields[i], fields[j]) { conflicts.append(c) }
                return conflicts.count < limit
            }
            if conflicts.count >= limit { return conflicts }
        }
        let fragments = collection.fragments
        if !fragments.isEmpty && (!collection.isEmpty || fragments.count > 1) {
            for (i, fragment) in fragments.enumerated() {
                // (B) The fields against each spread fragment.
                try collectConflictsBetweenFieldsAndFragment(&conflicts, false, collection, fragment)
                if conflicts.count >= limit { return conflicts }
                // (C) Each spread fragment against the ones after it.
                for other in fragments[(i + 1)...] {
                    try collectConflictsBetweenFragments(&conflicts, false, fragment, other)
                    if conflicts.count >= limit { return conflicts }
                }
            }
        }
        return conflicts
    }

    /// Calls `body` with each pair i < j of `fields` whose shapes may conflict, in
    /// graphql-js's order (by i, then j), until it returns false. Pairs of shapes that
    /// cannot conflict are never visited, so thousands of repetitions cost nothing.
    private func forEachPairWithin(
        _ fields: [FieldDetails], _ body: (Int, Int) throws(StepLimitReached) -> Bool
    ) throws(StepLimitReached) {
        guard usesShapes else {
            for i in 0..<fields.count {
                for j in (i + 1)..<fields.count {
                    try spend(1)
                    guard try body(i, j) else { return }
                }
            }
            return
        }
        let shapeOf = fields.map { fieldShape($0) }
        var positions: [Int: [Int]] = [:]
        for (i, shape) in shapeOf.enumerated() { positions[shape, default: []].append(i) }
        let distinct = positions.keys.sorted()
        var partners: [Int: [Int]] = [:]
        for i in 0..<fields.count {
            let shape = shapeOf[i]
            let candidates: [Int]
            if let known = partners[shape] {
                candidates = known
            } else {
                candidates = distinct.filter { !mergeable(shape, $0, false) }
                partners[shape] = candidates
            }
            if candidates.isEmpty { continue }
            var later: [Int] = []
            for candidate in candidates {
                let list = positions[candidate] ?? []
                // First position after i (positions are ascending).
                var low = 0
                var high = list.count
                while low < high {
                    let mid = (low + high) / 2
                    if list[mid] <= i { low = mid + 1 } else { high = mid }
                }
                later.append(contentsOf: list[low...])
            }
            if candidates.count > 1 { later.sort() }
            for j in later {
                try spend(1)
                guard try body(i, j) else { return }
            }
        }
    }

    private func collectConflictsBetweenFieldsAndFragment(
        _ conflicts: inout [Conflict], _ exclusive: Bool, _ collection: FieldCollection, _ fragment: Int
    ) throws(StepLimitReached) {
        try spend(1)
        guard !collection.isEmpty else { return }
        let compared = collection.comparedFragments[fragment]
        // A non-exclusive comparison covers an exclusive one, not the other way round.
        if compared == false || (exclusive && compared == true) { return }
        // Nothing of the fragment (nor of what it spreads) can conflict with these fields.
        if usesShapes && fragment >= 0
            && mergeableBetween(ownExpansion(ofSet: setShape(collection)), expansion(ofFragment: fragment), exclusive)
        {
            return
        }
        journal?.append(.comparedFragment(collection, fragment, compared))
        collection.comparedFragments[fragment] = exclusive
        guard fragment >= 0 else { return }
        let fragmentCollection = collectFragmentFields(fragment)
        if collection === fragmentCollection { return }
        // (D) The fields against the fragment's fields.
        try collectConflictsBetween(&conflicts, exclusive, collection, fragmentCollection)
        // (E) The fields against the fragments that fragment spreads.
        for referenced in fragmentCollection.fragments {
            try collectConflictsBetweenFieldsAndFragment(&conflicts, exclusive, collection, referenced)
        }
    }

    private func collectConflictsBetweenFragments(
        _ conflicts: inout [Conflict], _ exclusive: Bool, _ fragment1: Int, _ fragment2: Int
    ) throws(StepLimitReached) {
        try spend(1)
        // Unknown fragments (-1) lead nowhere, whatever their names.
        if fragment1 == fragment2 || fragment1 < 0 || fragment2 < 0 { return }
        if comparedFragmentPairs.has(fragment1, fragment2, exclusive: exclusive) { return }
        // Nothing the two fragments reach can conflict.
        if usesShapes && mergeableBetween(expansion(ofFragment: fragment1), expansion(ofFragment: fragment2), exclusive)
        {
            return
        }
        journal?.append(.fragmentPair(fragment1, fragment2, comparedFragmentPairs.state(fragment1, fragment2)))
        comparedFragmentPairs.add(fragment1, fragment2, exclusive: exclusive)
        let collection1 = collectFragmentFields(fragment1)
        let collection2 = collectFragmentFields(fragment2)
        // (F) The two fragments' own fields.
        try collectConflictsBetween(&conflicts, exclusive, collection1, collection2)
        // (G) Each against the fragments the other spreads.
        for referenced in collection2.fragments {
            try collectConflictsBetweenFragments(&conflicts, exclusive, fragment1, referenced)
        }
        for referenced in collection1.fragments {
            try collectConflictsBetweenFragments(&conflicts, exclusive, referenced, fragment2)
        }
    }

    private func findConflictsBetweenSubSelectionSets(
        _ exclusive: Bool, _ collection1: FieldCollection, _ collection2: FieldCollection
    ) throws(StepLimitReached) -> [Conflict] {
        var conflicts: [Conflict] = []
        // (H) Field against field.
        try collectConflictsBetween(&conflicts, exclusive, collection1, collection2)
        // (I) Each side's fields against the other side's fragments.
        for fragment in collection2.fragments {
            try collectConflictsBetweenFieldsAndFragment(&conflicts, exclusive, collection1, fragment)
        }
        for fragment in collection1.fragments {
            try collectConflictsBetweenFieldsAndFragment(&conflicts, exclusive, collection2, fragment)
        }
        // (J) Fragment against fragment.
        for fragment1 in collection1.fragments {
            for fragment2 in collection2.fragments {
                try collectConflictsBetweenFragments(&conflicts, exclusive, fragment1, fragment2)
            }
        }
        return conflicts
    }

    private func collectConflictsBetween(
        _ conflicts: inout [Conflict], _ exclusive: Bool, _ collection1: FieldCollection, _ collection2: FieldCollection
    ) throws(StepLimitReached) {
        guard !collection1.isEmpty, !collection2.isEmpty else { return }
        for (i, name) in collection1.responseNames.enumerated() {
            guard let fields2 = collection2.group(name) else { continue }
            for field1 in collection1.groups[i] {
                let shape1 = usesShapes ? fieldShape(field1) : -1
                for field2 in fields2 where !usesShapes || !mergeable(shape1, fieldShape(field2), exclusive) {
                    if let c = try findConflict(exclusive, name, field1, field2) { conflicts.append(c) }
                }
            }
        }
    }

    private func findConflict(
        _ parentsExclusive: Bool, _ responseName: String, _ details1: FieldDetails, _ details2: FieldDetails
    ) throws(StepLimitReached) -> Conflict? {
        try spend(1)
        // Distinct object types never apply to the same value, so their fields may differ.
        let exclusive =
            parentsExclusive
            || (details1.parentIsObject && details2.parentIsObject && details1.parentType != details2.parentType)
        let type1 = details1.type
        let type2 = details2.type
        let sameName = details1.name == details2.name
        // Whether both come from one field definition (the oracle compares type objects,
        // which are shared only then, or for bare named types).
        let sameDefinition = sameName && details1.parentType == details2.parentType
        if details1.isSimpleLeaf && details2.isSimpleLeaf && sameName
            && Self.identicalTypes(type1, type2, sameDefinition)
        {
            return nil
        }
        if !exclusive {
            let reason: String
            if !sameName {
                reason =
                    "\"\(Self.abbreviate(details1.name))\" and \"\(Self.abbreviate(details2.name))\" are different fields"
            } else if !details1.hasArguments && !details2.hasArguments {
                reason = ""
            } else if let cached = details1.comparisons[ObjectIdentifier(details2)] {
                reason = cached
            } else {
                reason = sameArguments(details1, details2) ? "" : "they have differing arguments"
                details1.comparisons[ObjectIdentifier(details2)] = reason
            }
            if reason.isEmpty && checksStream && details1.streamKey != details2.streamKey {
                return Conflict(
                    responseName: responseName, reason: "they have differing stream directives",
                    fields1: [details1.loc], fields2: [details2.loc])
            }
            if !reason.isEmpty {
                return Conflict(
                    responseName: responseName, reason: reason, fields1: [details1.loc], fields2: [details2.loc])
            }
        }
        if let type1, let type2, typesConflict(type1, type2, sameDefinition) {
            return Conflict(
                responseName: responseName, reason: "they return conflicting types \"\(type1)\" and \"\(type2)\"",
                fields1: [details1.loc], fields2: [details2.loc])
        }
        if let collection1 = subCollection(details1), let collection2 = subCollection(details2) {
            let conflicts = try findConflictsBetweenSubSelectionSets(exclusive, collection1, collection2)
            return Self.subfieldConflicts(conflicts, responseName, details1.loc, details2.loc)
        }
        return nil
    }

    /// The collection of a field's selection set under the field's named type.
    func subCollection(_ details: FieldDetails) -> FieldCollection? {
        if let cached = details.subCollection { return cached }
        guard let selectionSet = details.node.selectionSet else { return nil }
        let collection = collectFields(details.type?.namedType, selectionSet)
        details.subCollection = collection
        return collection
    }

    static func identicalTypes(_ a: TypeReference?, _ b: TypeReference?, _ sameDefinition: Bool) -> Bool {
        guard let a, let b else { return a == nil && b == nil }
        if case .named(let x) = a, case .named(let y) = b { return x == y }
        return sameDefinition && a == b
    }

    /// Two types conflict when their list/non-null shapes differ or they end in different
    /// leaf types; composite types are compared field by field instead (graphql-js
    /// `doTypesConflict`).
    func typesConflict(_ type1: TypeReference, _ type2: TypeReference, _ sameDefinition: Bool) -> Bool {
        if Self.identicalTypes(type1, type2, sameDefinition) { return false }
        switch (type1, type2) {
        case (.list(let a), .list(let b)): return typesConflict(a, b, sameDefinition)
        case (.list, _), (_, .list): return true
        case (.nonNull(let a), .nonNull(let b)): return typesConflict(a, b, sameDefinition)
        case (.nonNull, _), (_, .nonNull): return true
        case (.named(let a), .named(let b)):
            let leaf1 = context.schema.kind(of: a)?.isLeafType ?? false
            let leaf2 = context.schema.kind(of: b)?.isLeafType ?? false
            return (leaf1 || leaf2) && a != b
        }
    }

    private func sameArguments(_ details1: FieldDetails, _ details2: FieldDetails) -> Bool {
        let arguments1 = argumentKeys(details1)
        let arguments2 = argumentKeys(details2)
        if arguments1.isEmpty { return arguments2.isEmpty }
        guard arguments1.count == arguments2.count else { return false }
        for (name, key) in arguments1 {
            guard let other = details2.argumentKeyByName[name], other == key else { return false }
        }
        return true
    }

    func argumentKeys(_ details: FieldDetails) -> [(String, String)] {
        if let keys = details.argumentKeys { return keys }
        let keys = details.node.arguments.map { ($0.name.value, Self.valueKey($0.value)) }
        for (name, key) in keys { details.argumentKeyByName[name] = key }
        details.argumentKeys = keys
        return keys
    }

    /// A text that equals another value's exactly when the values are the same literal,
    /// object fields taken in name order (graphql-js compares printed, sorted values).
    static func valueKey(_ value: Value) -> String {
        switch value {
        case .variable(let v): "$" + v.name.value
        case .int(let v): "i" + v.value
        case .float(let v): "f" + v.value
        case .string(let v): (v.block ? "B" : "S") + String(v.value.utf8.count) + ":" + v.value
        case .boolean(let v): v.value ? "true" : "false"
        case .null: "null"
        case .enumValue(let v): "e" + v.value
        case .list(let l): "[" + l.values.map(valueKey).joined(separator: ",") + "]"
        case .object(let o):
            "{"
                + o.fields.enumerated().sorted { a, b in
                    a.element.name.value != b.element.name.value
                        ? a.element.name.value < b.element.name.value : a.offset < b.offset
                }.map { $0.element.name.value + ":" + valueKey($0.element.value) }.joined(separator: ",") + "}"
        }
    }

    private static func subfieldConflicts(
        _ conflicts: [Conflict], _ responseName: String, _ node1: Location, _ node2: Location
    ) -> Conflict? {
        guard !conflicts.isEmpty else { return nil }
        var message = ""
        for c in conflicts {
            message +=
                (message.isEmpty ? "" : " and ")
                + "subfields \"\(abbreviate(c.responseName))\" conflict because \(c.reason)"
            if message.unicodeScalars.count > maxConflictDetailLength { break }
        }
        return Conflict(
            responseName: responseName, reason: abbreviate(message),
            fields1: conflictNodes(node1, conflicts.map(\.fields1)),
            fields2: conflictNodes(node2, conflicts.map(\.fields2)))
    }

    /// The enclosing field, then the fields of the sub-conflicts, at most `maxConflictNodes`
    /// (taking the deepest fields of each when cutting).
    private static func conflictNodes(_ node: Location, _ lists: [[Location]]) -> [Location] {
        var nodes = [node]
        for fields in lists {
            nodes += fields.suffix(maxConflictNodes - nodes.count)
            if nodes.count == maxConflictNodes { break }
        }
        return nodes
    }

    private static func abbreviate(_ text: String) -> String {
        guard text.unicodeScalars.count > maxConflictDetailLength else { return text }
        var result = String.UnicodeScalarView()
        result.append(contentsOf: text.unicodeScalars.prefix(maxConflictDetailLength))
        return String(result) + "..."
    }

    // MARK: - Collecting fields

    func collectFragmentFields(_ index: Int) -> FieldCollection {
        if let cached = fragmentCollections[index] { return cached }
        let fragment = context.fragmentDefinitions[index]
        let name = fragment.typeCondition.name.value
        let collection = collectFields(context.schema.kind(of: name) != nil ? name : nil, fragment.selectionSet)
        fragmentCollections[index] = collection
        return collection
    }

    private func collectFields(_ parentType: String?, _ selectionSet: SelectionSet) -> FieldCollection {
        let key = CollectionKey(parentType: parentType, start: selectionSet.loc.start, end: selectionSet.loc.end)
        let cacheable = selectionSet.loc.start >= 0
        if cacheable, let cached = collected[key] { return cached }
        let collection = FieldCollection(id: nextCollectionID)
        nextCollectionID += 1
        var seenFragments = Set<String>()
        collectFields(parentType, selectionSet, into: collection, &seenFragments)
        if cacheable { collected[key] = collection }
        return collection
    }

    private func collectFields(
        _ parentType: String?, _ selectionSet: SelectionSet, into collection: FieldCollection,
        _ seenFragments: inout Set<String>
    ) {
        let kind = parentType.flatMap { context.schema.kind(of: $0) }
        let parentIsObject = kind == .object
        // graphql-js looks in the type's own fields here: no meta-fields, none on unions.
        let hasFields = kind == .object || kind == .interface
        for selection in selectionSet.selections {
            switch selection {
            case .field(let field):
                var type: TypeReference?
                if hasFields, let parentType, let entry = context.schema.lookup.field(field.name.value, on: parentType),
                    !entry.isMetaField
                {
                    type = entry.definition.type
                }
                collection.append(
                    FieldDetails(parentType: parentType, parentIsObject: parentIsObject, node: field, type: type),
                    as: field.responseKey)
            case .fragmentSpread(let spread):
                if seenFragments.insert(spread.name.value).inserted {
                    collection.fragments.append(context.fragmentIndexByName[spread.name.value] ?? -1)
                }
            case .inlineFragment(let inline):
                var type = parentType
                if let condition = inline.typeCondition {
                    type = context.schema.kind(of: condition.name.value) != nil ? condition.name.value : nil
                }
                collectFields(type, inline.selectionSet, into: collection, &seenFragments)
            }
        }
    }
}
