import Foundation
import GraphQL

/// Random operations over a schema, for properties that must hold for any query: a seeded
/// walk of the schema's own types and fields (so a new field is generated without touching
/// this file), with argument values drawn by type and name from facts of the demo catalog.
/// Documents validate against the schema; some arguments are deliberately out of range or
/// unknown ids, which execution reports as field errors.
struct RandomQueries {
    private var rng: SplitMix64
    /// Every response name is unique in the document, so no two fields can conflict
    /// (OverlappingFieldsCanBeMerged) however the fragments fall.
    private var nextAlias = 0
    let schema: Schema
    /// Nested object levels at most below the root.
    let maxDepth: Int

    init(seed: UInt64, schema: Schema, maxDepth: Int = 4) {
        self.rng = SplitMix64(seed: seed)
        self.schema = schema
        self.maxDepth = maxDepth
    }

    static let names = [
        "Iron Maiden", "AC/DC", "Metallica", "Queen", "Led Zeppelin", "U2", "Deep Purple", "Black Sabbath", "rock",
        "Greatest Hits", "Live", "nothing matches this",
    ]
    static let ids = [
        "itunes:artist:100001", "itunes:artist:100090", "itunes:album:200004", "itunes:album:200141",
        "itunes:track:300001", "itunes:track:300404", "itunes:video:400004", "applemusic:album:200004",
        "applemusic:artist:100001", "applemusic:track:300001", "rakuten:album:4900010000007", "tmdb:movie:500001",
        "tmdb:movie:999999", "itunes:album:1",
    ]

    mutating func int(_ range: ClosedRange<Int>) -> Int { Int(rng.next() % UInt64(range.count)) + range.lowerBound }
    mutating func chance(_ percent: Int) -> Bool { int(0...99) < percent }
    mutating func pick<T>(_ items: [T]) -> T { items[int(0...(items.count - 1))] }

    /// A budget for `--max-query-cost`: around the prices of one call (1, a YouTube search 100).
    mutating func budget() -> Int {
        chance(30) ? pick([1, 2, 3, 99, 100, 101, 199, 200, 201]) : int(1...3_000)
    }

    /// One query operation with one to three root fields.
    mutating func query() -> String {
        guard let root = schema.queryType, let type = schema.types[root] else { return "{ __typename }" }
        let fields = type.fields
        var selections: [String] = []
        for index in 0..<int(1...3) {
            selections.append("r\(index): " + field(pick(fields), depth: 0))
        }
        return "{ " + selections.joined(separator: " ") + " }"
    }

    /// `field(args) { … }`, or the bare field for a leaf.
    private mutating func field(_ definition: FieldDefinitionModel, depth: Int) -> String {
        var text = definition.name
        var arguments: [String] = []
        for argument in definition.arguments {
            let required = argument.type.isNonNull && argument.defaultValue == nil
            guard required || chance(50) else { continue }
            arguments.append("\(argument.name): \(value(for: argument))")
        }
        if !arguments.isEmpty { text += "(" + arguments.joined(separator: ", ") + ")" }
        guard let type = schema.types[definition.type.namedType], !type.isLeafType else { return text }
        return text + " " + selectionSet(on: type, depth: depth + 1)
    }

    /// One to four fields of an object or interface type (leaves only at the depth limit), and
    /// for an abstract type inline fragments on some of its implementations.
    private mutating func selectionSet(on type: GraphQLNamedType, depth: Int) -> String {
        let fields = type.fields.filter { field in
            depth < maxDepth || (schema.types[field.type.namedType]?.isLeafType ?? true)
        }
        var selections: [String] = []
        for _ in 0..<int(1...4) {
            let chosen = pick(fields)
            nextAlias += 1
            selections.append("f\(nextAlias): " + field(chosen, depth: depth))
        }
        if type.isAbstractType {
            for concrete in schema.possibleTypes(of: type.name) where chance(40) {
                guard let concreteType = schema.types[concrete] else { continue }
                selections.append("... on \(concrete) " + selectionSet(on: concreteType, depth: depth))
            }
        }
        return "{ " + selections.joined(separator: " ") + " }"
    }

    /// A literal for `argument`, chosen by its type and name.
    private mutating func value(for argument: InputValueModel) -> String {
        let typeName = argument.type.namedType
        if case .enumType(let enumType)? = schema.types[typeName] { return pick(enumType.values).name }
        switch (typeName, argument.name) {
        case ("Int", "first"):
            // Mostly small lists; sometimes outside the documented range (a BAD_USER_INPUT error).
            return String(chance(10) ? pick([0, 51, 500]) : int(1...3))
        case ("Int", _): return String(pick([50, 100, 300]))
        case ("ID", _): return quoted(pick(Self.ids))
        case ("String", "size"): return quoted(pick(["w92", "w500", "original"]))
        case ("Boolean", _): return chance(50) ? "true" : "false"
        default: return quoted(pick(Self.names))
        }
    }

    private func quoted(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
}

/// A small, fast, seedable generator (Steele, Lea and Flood's SplitMix64): the same seed gives
/// the same queries on every run and machine.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

extension TypeReference {
    var isNonNull: Bool {
        if case .nonNull = self { return true }
        return false
    }
}
