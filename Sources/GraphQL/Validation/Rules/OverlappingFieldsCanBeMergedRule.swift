/// Overlapping fields can be merged
///
/// Fields that end up under the same response name (after following fragments) must be
/// mergeable: the same field with the same arguments (unless their parents are distinct
/// object types, so that they never apply together), shapes of return types that agree,
/// and sub-selections that merge in turn.
/// Spec §5.3.2 https://spec.graphql.org/September2025/#sec-Field-Selection-Merging
///
/// Algorithm (graphql-js's, with graphql-core 3.2.14's memoisation and work budget, the
/// behaviour our conformance oracle has):
///
/// - Each selection set of the document (not those of inline fragments, whose fields
///   belong to the enclosing set) is collected once per parent type into fields grouped
///   by response name plus the names of the fragments it spreads; collections are cached.
/// - Fields are compared "within" a collection only there (every pair of one response
///   group). Then the collection is compared "between" each spread fragment (and, through
///   them, the fragments they spread), and each pair of spread fragments with each other.
/// - Two fields under one response name conflict when, unless their parents are mutually
///   exclusive, names or arguments differ; or when their types differ in list/non-null
///   shape or leaf type; otherwise their sub-selections are compared "between" as above.
/// - Memos: a collection remembers which fragments it was compared with, a pair set
///   remembers compared fragment pairs, a field pair remembers its name/argument verdict,
///   and the response groups two collections share are computed once.
/// - Every comparison step spends from a budget of 500,000 units (graphql-core's
///   `MAX_COMPLEXITY_BUDGET`); exhausting it stops validation with an error instead of
///   letting a hostile document (thousands of repeated fields, spreads of each other) run
///   for seconds. Reasons and location lists are capped in length.
final class OverlappingFieldsCanBeMergedRule: ValidationVisitor {
  static let rule = ValidationRule(name: "OverlappingFieldsCanBeMerged") {
    OverlappingFieldsCanBeMergedRule(context: $0)
  }
  static let name = "OverlappingFieldsCanBeMerged"
  /// graphql-core's budget: a field pair costs 2, other steps 1 or 2.
  static let complexityBudget = 500_000
  static let maxConflictDetailLength = 1000
  static let maxConflictNodes = 20

  private let context: ValidationContext
  let events: ValidationEvents = [.selectionSet]
  private var remainingBudget = OverlappingFieldsCanBeMergedRule.complexityBudget
  private var collected: [CollectionKey: FieldCollection] = [:]
  private var comparedFragmentPairs: [String: [String: Bool]] = [:]

  init(context: ValidationContext) { self.context = context }

  private struct BudgetExceeded: Error {}

  private struct CollectionKey: Hashable {
    let parentType: String?
    let start: Int
    let end: Int
  }

  /// One field occurrence, with its definition on the parent type it was collected under.
  private final class FieldDetails {
    let parentType: String?
    let node: Field
    let definition: FieldDefinitionModel?
    let isSimpleLeaf: Bool
    /// Argument name → comparison key, and argument names in order; built on first use.
    var argumentKeys: [(String, String)]?
    var argumentKeyByName: [String: String] = [:]
    /// Name/argument verdicts against other fields: "" when they match.
    var comparisons: [ObjectIdentifier: String] = [:]

    init(parentType: String?, node: Field, definition: FieldDefinitionModel?) {
      self.parentType = parentType
      self.node = node
      self.definition = definition
      self.isSimpleLeaf = node.arguments.isEmpty && node.selectionSet == nil
    }
  }

  /// The fields of a selection set grouped by response name, and the fragments it spreads.
  private final class FieldCollection {
    var responseNames: [String] = []
    var groups: [String: [FieldDetails]] = [:]
    var fragmentNames: [String] = []
    var comparedFragments: [String: Bool] = [:]
    var overlapping: [ObjectIdentifier: [(String, [FieldDetails], [FieldDetails])]] = [:]
    var isEmpty: Bool { responseNames.isEmpty }
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
        "Validation aborted: comparing the fields that share response names needs more than "
          + "\(Self.complexityBudget) steps.")
    }
  }

  private func spend(_ cost: Int) throws(BudgetExceeded) {
    remainingBudget -= cost
    if remainingBudget < 0 { throw BudgetExceeded() }
  }

  // MARK: - Comparisons

  private func findConflictsWithinSelectionSet(_ parentType: String?, _ selectionSet: SelectionSet)
    throws(BudgetExceeded) -> [Conflict]
  {
    var conflicts: [Conflict] = []
    let collection = collectFields(parentType, selectionSet)
    // (A) Within the collection's own fields: the only place fields of one set meet.
    for name in collection.responseNames {
      guard let fields = collection.groups[name], fields.count > 1 else { continue }
      for i in 0..<fields.count {
        for j in (i + 1)..<fields.count {
          if let c = try findConflict(false, name, fields[i], fields[j]) { conflicts.append(c) }
        }
      }
    }
    let fragmentNames = collection.fragmentNames
    if !fragmentNames.isEmpty && (!collection.isEmpty || fragmentNames.count > 1) {
      for (i, fragmentName) in fragmentNames.enumerated() {
        // (B) The fields against each spread fragment.
        try collectConflictsBetweenFieldsAndFragment(&conflicts, false, collection, fragmentName)
        // (C) Each spread fragment against the ones after it.
        for other in fragmentNames[(i + 1)...] {
          try collectConflictsBetweenFragments(&conflicts, false, fragmentName, other)
        }
      }
    }
    return conflicts
  }

  private func collectConflictsBetweenFieldsAndFragment(
    _ conflicts: inout [Conflict], _ exclusive: Bool, _ collection: FieldCollection, _ fragmentName: String
  ) throws(BudgetExceeded) {
    try spend(1)
    guard !collection.isEmpty else { return }
    let compared = collection.comparedFragments[fragmentName]
    // A non-exclusive comparison covers an exclusive one, not the other way round.
    if compared == false || (exclusive && compared == true) { return }
    collection.comparedFragments[fragmentName] = exclusive
    guard let fragment = context.fragment(named: fragmentName) else { return }
    let fragmentCollection = collectFragmentFields(fragment)
    if collection === fragmentCollection { return }
    // (D) The fields against the fragment's fields.
    try collectConflictsBetween(&conflicts, exclusive, collection, fragmentCollection)
    // (E) The fields against the fragments that fragment spreads.
    for referenced in fragmentCollection.fragmentNames {
      try collectConflictsBetweenFieldsAndFragment(&conflicts, exclusive, collection, referenced)
    }
  }

  private func collectConflictsBetweenFragments(
    _ conflicts: inout [Conflict], _ exclusive: Bool, _ name1: String, _ name2: String
  ) throws(BudgetExceeded) {
    try spend(2)
    if name1 == name2 { return }
    if hasComparedPair(name1, name2, exclusive) { return }
    comparedFragmentPairs[name1, default: [:]][name2] = exclusive
    guard let fragment1 = context.fragment(named: name1), let fragment2 = context.fragment(named: name2) else {
      return
    }
    let collection1 = collectFragmentFields(fragment1)
    let collection2 = collectFragmentFields(fragment2)
    // (F) The two fragments' own fields.
    try collectConflictsBetween(&conflicts, exclusive, collection1, collection2)
    // (G) Each against the fragments the other spreads.
    for referenced in collection2.fragmentNames {
      try collectConflictsBetweenFragments(&conflicts, exclusive, name1, referenced)
    }
    for referenced in collection1.fragmentNames {
      try collectConflictsBetweenFragments(&conflicts, exclusive, referenced, name2)
    }
  }

  private func hasComparedPair(_ a: String, _ b: String, _ exclusive: Bool) -> Bool {
    func ordered(_ x: String, _ y: String) -> Bool {
      guard let recorded = comparedFragmentPairs[x]?[y] else { return false }
      // A non-exclusive comparison covers both; an exclusive one only exclusive asks.
      return exclusive ? true : recorded == false
    }
    return ordered(a, b) || ordered(b, a)
  }

  private func findConflictsBetweenSubSelectionSets(
    _ exclusive: Bool, _ parentType1: String?, _ selectionSet1: SelectionSet, _ parentType2: String?,
    _ selectionSet2: SelectionSet
  ) throws(BudgetExceeded) -> [Conflict] {
    var conflicts: [Conflict] = []
    let collection1 = collectFields(parentType1, selectionSet1)
    let collection2 = collectFields(parentType2, selectionSet2)
    // (H) Field against field.
    try collectConflictsBetween(&conflicts, exclusive, collection1, collection2)
    // (I) Each side's fields against the other side's fragments.
    for name in collection2.fragmentNames {
      try collectConflictsBetweenFieldsAndFragment(&conflicts, exclusive, collection1, name)
    }
    for name in collection1.fragmentNames {
      try collectConflictsBetweenFieldsAndFragment(&conflicts, exclusive, collection2, name)
    }
    // (J) Fragment against fragment.
    for name1 in collection1.fragmentNames {
      for name2 in collection2.fragmentNames {
        try collectConflictsBetweenFragments(&conflicts, exclusive, name1, name2)
      }
    }
    return conflicts
  }

  private func collectConflictsBetween(
    _ conflicts: inout [Conflict], _ exclusive: Bool, _ collection1: FieldCollection, _ collection2: FieldCollection
  ) throws(BudgetExceeded) {
    guard !collection1.isEmpty, !collection2.isEmpty else { return }
    for (name, fields1, fields2) in try overlappingFields(collection1, collection2) {
      for field1 in fields1 {
        for field2 in fields2 {
          if let c = try findConflict(exclusive, name, field1, field2) { conflicts.append(c) }
        }
      }
    }
  }

  private func overlappingFields(_ collection1: FieldCollection, _ collection2: FieldCollection)
    throws(BudgetExceeded) -> [(String, [FieldDetails], [FieldDetails])]
  {
    let key = ObjectIdentifier(collection2)
    if let cached = collection1.overlapping[key] { return cached }
    var result: [(String, [FieldDetails], [FieldDetails])] = []
    for name in collection1.responseNames {
      try spend(1)
      if let fields2 = collection2.groups[name], !fields2.isEmpty, let fields1 = collection1.groups[name] {
        result.append((name, fields1, fields2))
      }
    }
    collection1.overlapping[key] = result
    return result
  }

  private func isObjectType(_ name: String?) -> Bool {
    guard let name, case .object = context.schema.types[name] else { return false }
    return true
  }

  private func findConflict(
    _ parentsExclusive: Bool, _ responseName: String, _ details1: FieldDetails, _ details2: FieldDetails
  ) throws(BudgetExceeded) -> Conflict? {
    let node1 = details1.node
    let node2 = details2.node
    // Distinct object types never apply to the same value, so their fields may differ.
    let exclusive =
      parentsExclusive
      || (details1.parentType != details2.parentType && isObjectType(details1.parentType)
        && isObjectType(details2.parentType))
    let type1 = details1.definition?.type
    let type2 = details2.definition?.type
    // Whether both come from one field definition (the oracle compares type objects,
    // which are shared only then, or for bare named types).
    let sameDefinition = details1.parentType == details2.parentType && node1.name.value == node2.name.value
    try spend(2)
    if details1.isSimpleLeaf && details2.isSimpleLeaf && node1.name.value == node2.name.value
      && Self.identicalTypes(type1, type2, sameDefinition)
    {
      return nil
    }
    if !exclusive {
      let key = ObjectIdentifier(details2)
      var reason: String
      if let cached = details1.comparisons[key] {
        reason = cached
      } else {
        let name1 = node1.name.value
        let name2 = node2.name.value
        if name1 != name2 {
          reason = "\"\(Self.abbreviate(name1))\" and \"\(Self.abbreviate(name2))\" are different fields"
        } else if try sameArguments(details1, details2) {
          reason = ""
        } else {
          reason = "they have differing arguments"
        }
        details1.comparisons[key] = reason
      }
      if !reason.isEmpty {
        return Conflict(responseName: responseName, reason: reason, fields1: [node1.loc], fields2: [node2.loc])
      }
    }
    if let type1, let type2, try doTypesConflict(type1, type2, sameDefinition) {
      return Conflict(
        responseName: responseName, reason: "they return conflicting types \"\(type1)\" and \"\(type2)\"",
        fields1: [node1.loc], fields2: [node2.loc])
    }
    if let selectionSet1 = node1.selectionSet, let selectionSet2 = node2.selectionSet {
      let conflicts = try findConflictsBetweenSubSelectionSets(
        exclusive, type1?.namedType, selectionSet1, type2?.namedType, selectionSet2)
      return Self.subfieldConflicts(conflicts, responseName, node1, node2)
    }
    return nil
  }

  private static func identicalTypes(_ a: TypeReference?, _ b: TypeReference?, _ sameDefinition: Bool) -> Bool {
    guard let a, let b else { return a == nil && b == nil }
    if case .named = a { return a == b }
    return sameDefinition && a == b
  }

  /// Two types conflict when their list/non-null shapes differ or they end in different
  /// leaf types; composite types are compared field by field instead.
  private func doTypesConflict(_ type1: TypeReference, _ type2: TypeReference, _ sameDefinition: Bool)
    throws(BudgetExceeded) -> Bool
  {
    if Self.identicalTypes(type1, type2, sameDefinition) { return false }
    try spend(1)
    switch (type1, type2) {
    case (.list(let a), .list(let b)): return try doTypesConflict(a, b, sameDefinition)
    case (.list, _), (_, .list): return true
    case (.nonNull(let a), .nonNull(let b)): return try doTypesConflict(a, b, sameDefinition)
    case (.nonNull, _), (_, .nonNull): return true
    case (.named(let a), .named(let b)):
      let leaf1 = context.schema.types[a]?.isLeafType ?? false
      let leaf2 = context.schema.types[b]?.isLeafType ?? false
      return (leaf1 || leaf2) && a != b
    }
  }

  private func sameArguments(_ details1: FieldDetails, _ details2: FieldDetails) throws(BudgetExceeded) -> Bool {
    let arguments1 = argumentKeys(details1)
    let arguments2 = argumentKeys(details2)
    if arguments1.isEmpty { return arguments2.isEmpty }
    guard arguments1.count == arguments2.count else { return false }
    for (name, key) in arguments1 {
      try spend(1)
      guard let other = details2.argumentKeyByName[name], other == key else { return false }
    }
    return true
  }

  private func argumentKeys(_ details: FieldDetails) -> [(String, String)] {
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
          a.element.name.value != b.element.name.value ? a.element.name.value < b.element.name.value : a.offset < b.offset
        }.map { $0.element.name.value + ":" + valueKey($0.element.value) }.joined(separator: ",") + "}"
    }
  }

  private static func subfieldConflicts(_ conflicts: [Conflict], _ responseName: String, _ node1: Field, _ node2: Field)
    -> Conflict?
  {
    guard !conflicts.isEmpty else { return nil }
    var message = ""
    for c in conflicts {
      message += (message.isEmpty ? "" : " and ") + "subfields \"\(abbreviate(c.responseName))\" conflict because \(c.reason)"
      if message.unicodeScalars.count > maxConflictDetailLength { break }
    }
    return Conflict(
      responseName: responseName, reason: abbreviate(message),
      fields1: conflictNodes(node1.loc, conflicts.map(\.fields1)), fields2: conflictNodes(node2.loc, conflicts.map(\.fields2)))
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

  private func collectFragmentFields(_ fragment: FragmentDefinition) -> FieldCollection {
    let name = fragment.typeCondition.name.value
    return collectFields(context.schema.types[name] != nil ? name : nil, fragment.selectionSet)
  }

  private func collectFields(_ parentType: String?, _ selectionSet: SelectionSet) -> FieldCollection {
    let key = CollectionKey(parentType: parentType, start: selectionSet.loc.start, end: selectionSet.loc.end)
    let cacheable = selectionSet.loc.start >= 0
    if cacheable, let cached = collected[key] { return cached }
    let collection = FieldCollection()
    var seenFragments = Set<String>()
    collectFields(parentType, selectionSet, into: collection, &seenFragments)
    if cacheable { collected[key] = collection }
    return collection
  }

  private func collectFields(
    _ parentType: String?, _ selectionSet: SelectionSet, into collection: FieldCollection,
    _ seenFragments: inout Set<String>
  ) {
    for selection in selectionSet.selections {
      switch selection {
      case .field(let field):
        var definition: FieldDefinitionModel?
        if let parentType {
          switch context.schema.types[parentType] {
          case .object(let o): definition = o.field(field.name.value)
          case .interface(let i): definition = i.field(field.name.value)
          default: break
          }
        }
        let responseName = field.responseKey
        if collection.groups[responseName] == nil { collection.responseNames.append(responseName) }
        collection.groups[responseName, default: []].append(
          FieldDetails(parentType: parentType, node: field, definition: definition))
      case .fragmentSpread(let spread):
        if seenFragments.insert(spread.name.value).inserted { collection.fragmentNames.append(spread.name.value) }
      case .inlineFragment(let inline):
        var type = parentType
        if let condition = inline.typeCondition {
          type = context.schema.types[condition.name.value] != nil ? condition.name.value : nil
        }
        collectFields(type, inline.selectionSet, into: collection, &seenFragments)
      }
    }
  }
}
