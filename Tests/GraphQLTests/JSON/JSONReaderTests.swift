import Testing

@testable import GraphQL

@Suite struct JSONReaderTests {
    @Test func keepsNumbersAndBooleansApart() throws {
        let value = try JSONReader.parse(#"[0, false, 1, true, 1.0, -0, 2.5e1]"#)
        #expect(value == .array([.int(0), .bool(false), .int(1), .bool(true), .double(1.0), .int(0), .double(25.0)]))
    }

    @Test func bigIntegersBecomeDoubles() throws {
        #expect(try JSONReader.parse("9223372036854775807") == .int(Int.max))
        #expect(try JSONReader.parse("9223372036854775808") == .double(9_223_372_036_854_775_808.0))
        #expect(try JSONReader.parse("-9223372036854775808") == .int(Int.min))
    }

    @Test func objectsKeepKeyOrderAndLastDuplicateValue() throws {
        let value = try JSONReader.parse(#"{"b": 1, "a": 2, "b": 3}"#)
        #expect(value == .object(JSONObject([("b", .int(3)), ("a", .int(2))])))
    }

    /// Small objects find a repeated key by scanning, big ones through a table built part way
    /// through: on both sides of the switch (64 keys), the first position and the last value.
    @Test(arguments: [3, 40, 63, 64, 65, 200])
    func repeatedKeysInObjectsOfAnySize(keys: Int) throws {
        let members = (0..<keys).map { "\"k\($0)\": \($0)" } + ["\"k0\": \"last\"", "\"k\(keys - 1)\": null"]
        let value = try JSONReader.parse("{" + members.joined(separator: ", ") + "}")
        guard case .object(let object) = value else {
            Issue.record("not an object: \(value)")
            return
        }
        #expect(object.keys == (0..<keys).map { "k\($0)" })
        #expect(object["k0"] == .string("last"))
        #expect(object["k\(keys - 1)"] == .null)
        #expect(object["k1"] == .int(1))
    }

    /// A repeated key is found whether either copy is written with escapes, and only among
    /// its own object's keys: an inner object's keys, read between two of the outer object's,
    /// are no repeats of the outer ones.
    @Test func repeatedKeysWithEscapesAndInNestedObjects() throws {
        let value = try JSONReader.parse(
            #"{"a": 1, "o": {"a": 2, "\u0061": 3, "b": {"o": 4}}, "\u0061": 5, "ab\n": 6, "ab\u000a": 7, "o": {"x": 8}}"#
        )
        #expect(
            value
                == .object(
                    JSONObject([("a", .int(5)), ("o", .object(JSONObject([("x", .int(8))]))), ("ab\n", .int(7))])))
        let inner = try JSONReader.parse(#"{"x": {"a": 1, "a": 2}, "a": 3, "y": [{"a": 4, "x": 5}]}"#)
        #expect(
            inner
                == .object(
                    JSONObject([
                        ("x", .object(JSONObject([("a", .int(2))]))), ("a", .int(3)),
                        ("y", .array([.object(JSONObject([("a", .int(4)), ("x", .int(5))]))])),
                    ])))
    }

    @Test func stringEscapesAndSurrogatePairs() throws {
        let value = try JSONReader.parse(#""a\"b\\c\/d\n\u00e9\ud83c\udfb5\ud800x""#)
        #expect(value == .string("a\"b\\c/d\né🎵\u{FFFD}x"))
    }

    @Test func reportsPositionOfErrors() {
        #expect(
            throws: JSONParseError(message: "unexpected character 'x', expected a value", offset: 9, line: 2, column: 4)
        ) {
            try JSONReader.parse("{\"a\":\n   x}")
        }
        #expect(throws: JSONParseError(message: "invalid number, leading zero", offset: 1, line: 1, column: 2)) {
            try JSONReader.parse("01")
        }
        #expect(
            throws: JSONParseError(message: "unexpected character '2' after the value", offset: 2, line: 1, column: 3)
        ) {
            try JSONReader.parse("1 2")
        }
        #expect(throws: JSONParseError(message: "unterminated string", offset: 4, line: 1, column: 5)) {
            try JSONReader.parse("\"abc")
        }
    }

    @Test func rejectsNestingBeyondTheLimit() {
        let deep = String(repeating: "[", count: JSONReader.maxDepth + 1)
        #expect(throws: JSONParseError.self) { try JSONReader.parse(deep) }
    }

    @Test func rejectsInvalidUTF8InStringsInsteadOfRepairingIt() throws {
        let quote = UInt8(ascii: "\"")
        // A lone continuation byte, a truncated sequence, an overlong encoding, in both the plain
        // and the escaped path.
        for bad: [UInt8] in [[0x80], [0xE2, 0x82], [0xC0, 0xAF], [UInt8(ascii: "\\"), UInt8(ascii: "n"), 0xFF]] {
            #expect(throws: JSONParseError.self) { try JSONReader.parse([quote] + bad + [quote]) }
        }
        #expect(try JSONReader.parse([quote, 0xC3, 0xA9, quote]) == .string("é"))
    }

    @Test func errorsSayWhichRuleTheTextBroke() {
        func kind(_ bytes: [UInt8]) -> JSONParseError.Kind? {
            do throws(JSONParseError) {
                _ = try JSONReader.parse(bytes)
                return nil
            } catch {
                return error.kind
            }
        }
        let quote = UInt8(ascii: "\"")
        #expect(kind(Array(String(repeating: "[", count: JSONReader.maxDepth + 1).utf8)) == .tooDeep)
        // At the limit the text is only unterminated: a syntax error.
        #expect(kind(Array(String(repeating: "[", count: JSONReader.maxDepth).utf8)) == .syntax)
        #expect(kind([quote, 0xC0, 0xAF, quote]) == .invalidUTF8)
        #expect(kind([0xFF]) == .invalidUTF8)
        #expect(kind(Array("{\"a\":}".utf8)) == .syntax)
        #expect(kind(Array("[1]".utf8)) == nil)
    }
}
