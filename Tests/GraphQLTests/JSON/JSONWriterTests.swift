import Testing

@testable import GraphQL

@Suite struct JSONWriterTests {
    @Test func numbersPrintLikeJavaScript() {
        let values: [(Double, String)] = [
            (4.0, "4"), (-0.0, "0"), (0.1, "0.1"), (12345.6789, "12345.6789"), (-0.5, "-0.5"), (1e21, "1e+21"),
            (1.5e-7, "1.5e-7"), (0.000001, "0.000001"), (123456789012.25, "123456789012.25"), (1e300, "1e+300"),
            (2.0 / 3.0, "0.6666666666666666"), (.nan, "null"), (.infinity, "null"),
        ]
        for (value, text) in values {
            #expect(JSONWriter.string(.double(value)) == text)
        }
        #expect(JSONWriter.string(.int(Int.min)) == "-9223372036854775808")
        #expect(JSONWriter.string(.int(-7)) == "-7")
    }

    @Test func stringsEscapeLikeJSONStringify() {
        #expect(JSONWriter.string(.string("a\"b\\c\n\t\u{01}é/\u{2028}")) == #""a\"b\\c\n\t\u0001é/"# + "\u{2028}\"")
    }

    @Test func objectsKeepOrder() {
        let value = JSONValue.object(JSONObject([("z", .null), ("a", .array([.bool(true), .string("x")]))]))
        #expect(JSONWriter.string(value) == #"{"z":null,"a":[true,"x"]}"#)
    }

    @Test func jsNumberParsing() {
        #expect(JSNumber.parse(" 12 ") == 12)
        #expect(JSNumber.parse("0x1F") == 31)
        #expect(JSNumber.parse("1e3") == 1000)
        #expect(JSNumber.parse(".5") == 0.5)
        #expect(JSNumber.parse("-Infinity") == -.infinity)
        #expect(JSNumber.parse("12abc") == nil)
        #expect(JSNumber.parse("inf") == nil)
        #expect(JSNumber.parse("") == 0)
    }
}
