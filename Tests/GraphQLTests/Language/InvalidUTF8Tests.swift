import Testing

@testable import GraphQL

/// Text that is not UTF-8 is an error naming the byte and its offset, never a U+FFFD the
/// client did not send (issue 16).
@Suite struct InvalidUTF8Tests {
    func parseError(_ bytes: [UInt8]) -> ReportedError? {
        do {
            _ = try parse(Source(bytes: bytes))
            return nil
        } catch {
            return ReportedError(error)
        }
    }

    @Test func theFirstInvalidByteIsFoundWhateverMakesItInvalid() {
        let cases: [([UInt8], Int?)] = [
            (Array("{ a(s: \"é東🎸\") }".utf8), nil),
            ([0x61, 0xFF], 1),  // never in UTF-8
            ([0x61, 0x80], 1),  // a continuation byte with no lead
            ([0xC0, 0xAF], 0),  // an overlong "/"
            ([0xE0, 0x80, 0xAF], 0),  // an overlong three-byte form
            ([0xED, 0xA0, 0x80], 0),  // a surrogate, U+D800
            ([0xF4, 0x90, 0x80, 0x80], 0),  // above U+10FFFF
            ([0x61, 0x62, 0xE2, 0x82], 2),  // cut short at the end
            ([0xE2, 0x82, 0x61], 0),  // cut short by an ASCII byte
            (Array("0123456789abcdef".utf8) + [0xF5], 16),  // after the eight-byte fast path
        ]
        for (bytes, offset) in cases {
            #expect(UTF8Validation.firstInvalidOffset(in: bytes) == offset, "\(bytes)")
        }
    }

    @Test func aDocumentWithAnInvalidByteIsASyntaxErrorAtThatByte() {
        #expect(
            parseError([0x7B, 0x20, 0xFF, 0x20, 0x7D])
                == ReportedError(
                    "Syntax Error: Invalid UTF-8: byte 0xFF at offset 2 is not part of a UTF-8 sequence.", 1, 3))
        // Inside a string or a comment too, where the lexer would otherwise take it as text.
        let inString = Array("{ a(s: \"x".utf8) + [0xC3] + Array("\") }".utf8)
        #expect(
            parseError(inString)
                == ReportedError(
                    "Syntax Error: Invalid UTF-8: byte 0xC3 at offset 9 is not part of a UTF-8 sequence.", 1, 10))
        let inComment = Array("# é\n".utf8) + [0x80] + Array("{ a }".utf8)
        #expect(parseError(inComment)?.message.hasPrefix("Syntax Error: Invalid UTF-8: byte 0x80 at offset 5") == true)
        #expect(parseError(Array("{ a(s: \"é\") }".utf8)) == nil)
    }

    @Test func jsonTextWithAnInvalidByteNamesItsOffset() {
        let bytes = Array(#"{"query":"{ a"#.utf8) + [0xFE] + Array(#" }"}"#.utf8)
        #expect(throws: JSONParseError.self) { try JSONReader.parse(bytes) }
        do {
            _ = try JSONReader.parse(bytes)
        } catch {
            #expect(error.message == "invalid UTF-8: byte 0xFE at offset 13")
            #expect(error.offset == 13)
            #expect(error.column == 14)
        }
    }
}
