import GraphQL

/// The generic values of leaf fields: plausible for the field's name, type and description,
/// drawn from the field's seed.
///
/// - `Int`, `Float`: in the range the field's description documents ("Average vote,
///   0–10."), else by name (`…Ms` a duration of 30 s to 10 min, `…Count` 0–1000, `year`
///   1960–2025), else 1–100; floats with one decimal.
/// - `String`: by name: `…url`/`…Url` an `https://example.com/…` URL, `…date`/`…Date` an ISO
///   8601 date, `…At` or a description naming RFC 3339 / a timestamp an RFC 3339 UTC
///   timestamp, `email` an `@example.com` address, `description`/`overview`/`summary`/`bio`
///   a sentence; anything else two to three capitalised words.
/// - `ID`: `<type>:<12 hex digits>`; `Boolean` either; an enum one of its values that is not
///   deprecated; a custom scalar `<Scalar>-<8 hex digits>`.
enum MockLeafValues {
    static func value(of type: GraphQLNamedType, field: MockField, seed: UInt64) -> JSONValue {
        switch type {
        case .enumType(let enumType):
            let values = enumType.values.filter { $0.deprecationReason == nil }
            let choices = values.isEmpty ? enumType.values : values
            guard !choices.isEmpty else { return .null }
            return .string(choices[MockSeed.pick(seed, in: 0...(choices.count - 1))].name)
        case .scalar(let scalar):
            switch scalar.name {
            case "Int": return .int(int(field, seed))
            case "Float": return .double(float(field, seed))
            case "Boolean": return .bool(MockSeed.scramble(seed) & 1 == 0)
            case "ID": return .string("\(field.parentType.lowercased()):\(hex(seed, 12))")
            case "String": return .string(string(field, seed))
            default: return .string("\(scalar.name)-\(hex(seed, 8))")
            }
        default:
            return .null
        }
    }

    static func int(_ field: MockField, _ seed: UInt64) -> Int {
        let name = field.name
        let range: ClosedRange<Int>
        if let documented = documentedRange(field.definition.description) {
            range = Int(documented.lowerBound.rounded(.up))...Int(documented.upperBound.rounded(.down))
        } else if name.hasSuffix("Ms") {
            range = 30_000...600_000
        } else if name.hasSuffix("Count") || name == "count" {
            range = 0...1_000
        } else if name.lowercased().hasSuffix("year") {
            range = 1960...2025
        } else {
            range = 1...100
        }
        return MockSeed.pick(seed, in: range.lowerBound...max(range.lowerBound, range.upperBound))
    }

    static func float(_ field: MockField, _ seed: UInt64) -> Double {
        let range = documentedRange(field.definition.description) ?? 0...100
        let tenths = MockSeed.pick(
            seed, in: Int((range.lowerBound * 10).rounded(.up))...Int((range.upperBound * 10).rounded(.down)))
        return Double(tenths) / 10
    }

    static func string(_ field: MockField, _ seed: UInt64) -> String {
        let name = field.name
        let lower = name.lowercased()
        let description = field.definition.description?.lowercased() ?? ""
        if lower.hasSuffix("url") || lower.hasSuffix("uri") {
            return "https://example.com/\(field.parentType.lowercased())/\(hex(seed, 12))"
        }
        if lower.hasSuffix("date") { return date(seed) }
        if name.hasSuffix("At") || description.contains("rfc 3339") || description.contains("timestamp") {
            return timestamp(seed)
        }
        if lower.contains("email") { return "user.\(hex(seed, 6))@example.com" }
        if ["description", "overview", "summary", "bio", "biography"].contains(lower) { return sentence(seed) }
        return words(seed, count: MockSeed.pick(MockSeed.mix(seed, 1), in: 2...3))
    }

    /// An ISO 8601 calendar date between 1960-01-01 and 2025-12-28.
    static func date(_ seed: UInt64) -> String {
        let year = MockSeed.pick(seed, in: 1960...2025)
        let month = MockSeed.pick(MockSeed.mix(seed, 1), in: 1...12)
        let day = MockSeed.pick(MockSeed.mix(seed, 2), in: 1...28)
        return "\(year)-\(twoDigits(month))-\(twoDigits(day))"
    }

    /// An RFC 3339 timestamp in UTC between 2006 and 2025.
    static func timestamp(_ seed: UInt64) -> String {
        let day = date(MockSeed.mix(seed, 3))
        let year = MockSeed.pick(seed, in: 2006...2025)
        let hour = MockSeed.pick(MockSeed.mix(seed, 4), in: 0...23)
        let minute = MockSeed.pick(MockSeed.mix(seed, 5), in: 0...59)
        let second = MockSeed.pick(MockSeed.mix(seed, 6), in: 0...59)
        return "\(year)\(day.dropFirst(4))T\(twoDigits(hour)):\(twoDigits(minute)):\(twoDigits(second))Z"
    }

    static func words(_ seed: UInt64, count: Int) -> String {
        (0..<count).map { i in
            let word = vocabulary[MockSeed.pick(MockSeed.mix(seed, UInt64(i) + 10), in: 0...(vocabulary.count - 1))]
            return word.prefix(1).uppercased() + word.dropFirst()
        }.joined(separator: " ")
    }

    static func sentence(_ seed: UInt64) -> String {
        let count = MockSeed.pick(seed, in: 8...14)
        let text = (0..<count).map { i in
            vocabulary[MockSeed.pick(MockSeed.mix(seed, UInt64(i) + 100), in: 0...(vocabulary.count - 1))]
        }.joined(separator: " ")
        return text.prefix(1).uppercased() + text.dropFirst() + "."
    }

    /// `count` lower-case hexadecimal digits of `seed`'s scramble.
    static func hex(_ seed: UInt64, _ count: Int) -> String {
        MockSeed.characters(seed, count: count, from: "0123456789abcdef")
    }

    private static func twoDigits(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }

    private static let vocabulary = [
        "amber", "atlas", "autumn", "avenue", "blue", "bright", "canyon", "cedar", "city", "coast", "comet", "crystal",
        "dawn", "desert", "diamond", "dream", "echo", "electric", "ember", "falcon", "field", "fire", "forest",
        "garden",
        "glass", "gold", "harbor", "heart", "highway", "horizon", "island", "iron", "jade", "lake", "light", "lunar",
        "meadow", "midnight", "mirror", "moon", "neon", "night", "ocean", "orchid", "paper", "parade", "river", "road",
        "rose", "satellite", "shadow", "silver", "sky", "song", "spring", "star", "stone", "storm", "summer", "thunder",
        "valley", "velvet", "wave", "wild", "winter", "wire",
    ]
}
