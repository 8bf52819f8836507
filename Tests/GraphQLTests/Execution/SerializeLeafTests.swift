import Testing

@testable import GraphQL

@Suite struct SerializeLeafTests {
    func serialize(_ value: JSONValue, _ kind: LeafKind) -> String {
        switch serializeLeaf(.json(value), kind) {
        case .success(let v): JSONWriter.string(v)
        case .failure(let message): "error: " + message.text
        }
    }

    @Test func int() {
        #expect(serialize(.double(2001.0), .int) == "2001")
        #expect(serialize(.double(2.5), .int) == "error: Int cannot represent non-integer value: 2.5")
        #expect(serialize(.string("1999"), .int) == "1999")
        #expect(serialize(.string("long ago"), .int) == #"error: Int cannot represent non-integer value: "long ago""#)
        #expect(
            serialize(.int(3_000_000_000), .int)
                == "error: Int cannot represent non 32-bit signed integer value: 3000000000")
        #expect(serialize(.bool(true), .int) == "1")
        #expect(serialize(.string(""), .int) == #"error: Int cannot represent non-integer value: """#)
        #expect(serialize(.array([.int(1)]), .int) == "error: Int cannot represent non-integer value: [1]")
    }

    @Test func float() {
        #expect(serialize(.int(4), .float) == "4")
        #expect(serialize(.string("3.5"), .float) == "3.5")
        #expect(serialize(.string("high"), .float) == #"error: Float cannot represent non numeric value: "high""#)
        #expect(serialize(.bool(false), .float) == "0")
    }

    @Test func stringBooleanAndID() {
        #expect(serialize(.double(1.5), .string) == #""1.5""#)
        #expect(serialize(.double(3.0), .string) == #""3""#)
        #expect(serialize(.bool(true), .string) == #""true""#)
        #expect(
            serialize(.object(JSONObject([("a", .int(1))])), .string)
                == "error: String cannot represent value: { a: 1 }")
        #expect(serialize(.int(0), .boolean) == "false")
        #expect(serialize(.string("yes"), .boolean) == #"error: Boolean cannot represent a non boolean value: "yes""#)
        #expect(serialize(.int(7), .id) == #""7""#)
        #expect(serialize(.double(7.5), .id) == "error: ID cannot represent value: 7.5")
    }

    @Test func enumsAndCustomScalars() throws {
        let values = EnumValues(EnumType(name: "Zone", values: [EnumValueModel(name: "BOX")]))
        #expect(serialize(.string("BOX"), .enumType(values)) == #""BOX""#)
        #expect(serialize(.int(1), .enumType(values)) == #"error: Enum "Zone" cannot represent value: 1"#)
        #expect(serialize(.object(JSONObject([("a", .array([]))])), .custom("JSON")) == #"{"a":[]}"#)
    }
}
