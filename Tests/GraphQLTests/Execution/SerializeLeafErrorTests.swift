import Testing

@testable import GraphQL

/// `serializeLeaf` at the edges SerializeLeafTests leaves out: the 32-bit and finite limits of
/// each built-in scalar, numeric strings, enum values that are not the enum's, lists, and values
/// with no JSON form. Messages are graphql-js 16's `serialize` errors.
@Suite struct SerializeLeafErrorTests {
    static let zone = EnumValues(
        EnumType(name: "Zone", values: [EnumValueModel(name: "BOX"), EnumValueModel(name: "PIT")]))

    func serialize(_ value: FieldValue, _ kind: LeafKind) -> String {
        switch serializeLeaf(value, kind) {
        case .success(let v): JSONWriter.string(v)
        case .failure(let message): "error: " + message.text
        }
    }

    func serialize(_ value: JSONValue, _ kind: LeafKind) -> String { serialize(.json(value), kind) }

    @Test func intOutsideThirtyTwoBits() {
        #expect(serialize(.int(2_147_483_647), .int) == "2147483647")
        #expect(serialize(.int(-2_147_483_648), .int) == "-2147483648")
        #expect(
            serialize(.int(2_147_483_648), .int)
                == "error: Int cannot represent non 32-bit signed integer value: 2147483648")
        #expect(
            serialize(.int(-2_147_483_649), .int)
                == "error: Int cannot represent non 32-bit signed integer value: -2147483649")
        #expect(
            serialize(.double(3e9), .int) == "error: Int cannot represent non 32-bit signed integer value: 3000000000")
        #expect(
            serialize(.double(-1e21), .int) == "error: Int cannot represent non 32-bit signed integer value: -1e+21")
        #expect(
            serialize(.string("3000000000"), .int)
                == #"error: Int cannot represent non 32-bit signed integer value: "3000000000""#)
        #expect(serialize(.double(-0.0), .int) == "0")
    }

    @Test func intFromNonIntegralNumbersAndStrings() {
        #expect(serialize(.double(0.1), .int) == "error: Int cannot represent non-integer value: 0.1")
        #expect(serialize(.double(.infinity), .int) == "error: Int cannot represent non-integer value: Infinity")
        #expect(serialize(.double(.nan), .int) == "error: Int cannot represent non-integer value: NaN")
        #expect(serialize(.string("1.5"), .int) == #"error: Int cannot represent non-integer value: "1.5""#)
        #expect(serialize(.string("Infinity"), .int) == #"error: Int cannot represent non-integer value: "Infinity""#)
        // JavaScript's Number(): surrounding blanks, exponents and hexadecimal digits.
        #expect(serialize(.string(" 42 "), .int) == "42")
        #expect(serialize(.string("1e3"), .int) == "1000")
        #expect(serialize(.string("0x10"), .int) == "16")
        #expect(serialize(.bool(false), .int) == "0")
        #expect(serialize(JSONValue.null, .int) == "error: Int cannot represent non-integer value: null")
        #expect(serialize(.object(JSONObject()), .int) == "error: Int cannot represent non-integer value: {}")
    }

    @Test func floatOnlyFinite() {
        #expect(serialize(.double(1.5), .float) == "1.5")
        #expect(serialize(.double(1e21), .float) == "1e+21")
        #expect(serialize(.double(.infinity), .float) == "error: Float cannot represent non numeric value: Infinity")
        #expect(serialize(.double(-.infinity), .float) == "error: Float cannot represent non numeric value: -Infinity")
        #expect(serialize(.double(.nan), .float) == "error: Float cannot represent non numeric value: NaN")
        #expect(
            serialize(.string("Infinity"), .float) == #"error: Float cannot represent non numeric value: "Infinity""#)
        #expect(serialize(.string(""), .float) == #"error: Float cannot represent non numeric value: """#)
        #expect(serialize(.string("-2.5e1"), .float) == "-25")
        #expect(serialize(.bool(true), .float) == "1")
        #expect(serialize(.array([]), .float) == "error: Float cannot represent non numeric value: []")
    }

    @Test func stringFromNonStrings() {
        #expect(serialize(.int(-3), .string) == #""-3""#)
        #expect(serialize(.double(1e21), .string) == #""1e+21""#)
        #expect(serialize(.double(.nan), .string) == "error: String cannot represent value: NaN")
        #expect(serialize(.double(.infinity), .string) == "error: String cannot represent value: Infinity")
        #expect(serialize(JSONValue.null, .string) == "error: String cannot represent value: null")
        #expect(serialize(.array([.string("a")]), .string) == #"error: String cannot represent value: ["a"]"#)
    }

    @Test func booleanAndIDFromOtherValues() {
        #expect(serialize(.double(0.0), .boolean) == "false")
        #expect(serialize(.double(-2.5), .boolean) == "true")
        #expect(serialize(.double(.nan), .boolean) == "error: Boolean cannot represent a non boolean value: NaN")
        #expect(serialize(JSONValue.null, .boolean) == "error: Boolean cannot represent a non boolean value: null")
        #expect(serialize(.array([]), .boolean) == "error: Boolean cannot represent a non boolean value: []")
        #expect(serialize(.string("x-1"), .id) == #""x-1""#)
        #expect(serialize(.int(-5), .id) == #""-5""#)
        #expect(serialize(.double(4.0), .id) == #""4""#)
        #expect(serialize(.double(.infinity), .id) == "error: ID cannot represent value: Infinity")
        #expect(serialize(.bool(true), .id) == "error: ID cannot represent value: true")
        #expect(serialize(.object(JSONObject([("id", .int(1))])), .id) == "error: ID cannot represent value: { id: 1 }")
    }

    @Test func enumValuesThatAreNotTheEnums() {
        #expect(serialize(.string("PIT"), .enumType(Self.zone)) == #""PIT""#)
        #expect(serialize(.string("pit"), .enumType(Self.zone)) == #"error: Enum "Zone" cannot represent value: "pit""#)
        #expect(serialize(.string(""), .enumType(Self.zone)) == #"error: Enum "Zone" cannot represent value: """#)
        #expect(serialize(.bool(true), .enumType(Self.zone)) == #"error: Enum "Zone" cannot represent value: true"#)
        #expect(
            serialize(.array([.string("BOX")]), .enumType(Self.zone))
                == #"error: Enum "Zone" cannot represent value: ["BOX"]"#)
    }

    @Test func listsOfJSONAreSerializedAsTheirJSON() {
        let list = FieldValue.list([.json(.int(1)), .list([.json(.string("a"))])])
        #expect(serialize(list, .custom("JSON")) == #"[1,["a"]]"#)
        #expect(serialize(list, .string) == #"error: String cannot represent value: [1, ["a"]]"#)
        #expect(serialize(.list([]), .int) == "error: Int cannot represent non-integer value: []")
    }

    /// An application value has no JSON form: each kind names itself and the value.
    @Test func valuesWithNoJSONForm() {
        struct Opaque: Sendable {}
        let host = FieldValue.host(Opaque())
        let described = String(describing: host)
        #expect(serialize(host, .int) == "error: Int cannot represent value: \(described)")
        #expect(serialize(host, .float) == "error: Float cannot represent value: \(described)")
        #expect(serialize(host, .string) == "error: String cannot represent value: \(described)")
        #expect(serialize(host, .boolean) == "error: Boolean cannot represent value: \(described)")
        #expect(serialize(host, .id) == "error: ID cannot represent value: \(described)")
        #expect(serialize(host, .custom("JSON")) == "error: JSON cannot represent value: \(described)")
        #expect(serialize(host, .enumType(Self.zone)) == "error: Enum \"Zone\" cannot represent value: \(described)")
        // A list holding one is no JSON either.
        let list = FieldValue.list([.json(.int(1)), host])
        #expect(serialize(list, .custom("JSON")) == "error: JSON cannot represent value: \(String(describing: list))")
        let pending = FieldValue.pending(PendingValue { .json(.int(1)) })
        #expect(serialize(pending, .int).hasPrefix("error: Int cannot represent value: pending("))
    }
}
