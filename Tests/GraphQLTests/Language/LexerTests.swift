import Testing

@testable import GraphQL

/// The lexer (spec §2.1): token kinds, ignored tokens, numbers, strings and escapes, and
/// every lexical error with graphql-js's message and its line and column.
@Suite struct LexerTests {
    // MARK: - Punctuators and names

    @Test func punctuatorsEachBecomeTheirOwnKind() throws {
        #expect(
            try lexAll("! $ & ( ) ... : = @ [ ] { | }") == [
                LexedToken(.bang, 0, 1), LexedToken(.dollar, 2, 3), LexedToken(.amp, 4, 5),
                LexedToken(.parenL, 6, 7), LexedToken(.parenR, 8, 9), LexedToken(.spread, 10, 13),
                LexedToken(.colon, 14, 15), LexedToken(.equals, 16, 17), LexedToken(.at, 18, 19),
                LexedToken(.bracketL, 20, 21), LexedToken(.bracketR, 22, 23), LexedToken(.braceL, 24, 25),
                LexedToken(.pipe, 26, 27), LexedToken(.braceR, 28, 29),
            ])
    }

    @Test func punctuatorsNeedNoSpaceBetweenThem() throws {
        #expect(
            try lexAll("{...}") == [LexedToken(.braceL, 0, 1), LexedToken(.spread, 1, 4), LexedToken(.braceR, 4, 5)])
    }

    @Test func namesTakeLettersDigitsAndUnderscores() throws {
        #expect(
            try lexAll("_private Track2 __typename zZ_9") == [
                LexedToken(.name, 0, 8, "_private"), LexedToken(.name, 9, 15, "Track2"),
                LexedToken(.name, 16, 26, "__typename"), LexedToken(.name, 27, 31, "zZ_9"),
            ])
    }

    @Test func aNameEndsAtThePunctuatorAfterIt() throws {
        #expect(
            try lexAll("album(id:7)") == [
                LexedToken(.name, 0, 5, "album"), LexedToken(.parenL, 5, 6), LexedToken(.name, 6, 8, "id"),
                LexedToken(.colon, 8, 9), LexedToken(.int, 9, 10, "7"), LexedToken(.parenR, 10, 11),
            ])
    }

    // MARK: - Ignored tokens

    @Test func whitespaceCommasAndLineTerminatorsAreIgnored() throws {
        #expect(
            try lexAll(" \t,a,,\r\nb\rc\n") == [
                LexedToken(.name, 3, 4, "a"), LexedToken(.name, 8, 9, "b"), LexedToken(.name, 10, 11, "c"),
            ])
    }

    @Test func commentsRunToTheEndOfTheLine() throws {
        #expect(
            try lexAll("# first { not a token\nartist # trailing ( \"x\"\r\nname #at end of input") == [
                LexedToken(.name, 22, 28, "artist"), LexedToken(.name, 47, 51, "name"),
            ])
    }

    @Test func commentsMayHoldAnyCharacter() throws {
        #expect(try lexAll("# café ♫ \u{1F3B8}\nx") == [LexedToken(.name, 17, 18, "x")])
    }

    @Test func byteOrderMarksAreIgnoredAtTheStartAndBetweenTokens() throws {
        #expect(
            try lexAll("\u{FEFF}title\u{FEFF}year") == [
                LexedToken(.name, 3, 8, "title"), LexedToken(.name, 11, 15, "year"),
            ])
    }

    @Test func anEmptyOrIgnoredOnlyTextHasNoTokens() throws {
        #expect(try lexAll("").isEmpty)
        #expect(try lexAll(" ,\n# only a comment").isEmpty)
    }

    // MARK: - Numbers

    @Test func integers() throws {
        #expect(
            try lexAll("0 -0 7 42 -1999") == [
                LexedToken(.int, 0, 1, "0"), LexedToken(.int, 2, 4, "-0"), LexedToken(.int, 5, 6, "7"),
                LexedToken(.int, 7, 9, "42"), LexedToken(.int, 10, 15, "-1999"),
            ])
    }

    @Test func floatsWithFractionExponentOrBoth() throws {
        #expect(
            try lexAll("0.5 -3.25 1e3 2E-4 6.02e+23 0e0") == [
                LexedToken(.float, 0, 3, "0.5"), LexedToken(.float, 4, 9, "-3.25"), LexedToken(.float, 10, 13, "1e3"),
                LexedToken(.float, 14, 18, "2E-4"), LexedToken(.float, 19, 27, "6.02e+23"),
                LexedToken(.float, 28, 31, "0e0"),
            ])
    }

    @Test func numbersMayBeFollowedByPunctuators() throws {
        #expect(
            try lexAll("[1,2.5]") == [
                LexedToken(.bracketL, 0, 1), LexedToken(.int, 1, 2, "1"), LexedToken(.float, 3, 6, "2.5"),
                LexedToken(.bracketR, 6, 7),
            ])
    }

    @Test func numberErrors() {
        #expect(lexError("00") == ReportedError("Syntax Error: Invalid number, unexpected digit after 0: \"0\".", 1, 2))
        #expect(
            lexError("-012") == ReportedError("Syntax Error: Invalid number, unexpected digit after 0: \"1\".", 1, 3))
        #expect(lexError("1.") == ReportedError("Syntax Error: Invalid number, expected digit but got: <EOF>.", 1, 3))
        #expect(lexError("1.}") == ReportedError("Syntax Error: Invalid number, expected digit but got: \"}\".", 1, 3))
        #expect(lexError(".5") == ReportedError("Syntax Error: Unexpected character: \".\".", 1, 1))
        #expect(lexError("1e") == ReportedError("Syntax Error: Invalid number, expected digit but got: <EOF>.", 1, 3))
        #expect(lexError("1e+") == ReportedError("Syntax Error: Invalid number, expected digit but got: <EOF>.", 1, 4))
        #expect(lexError("1.e5") == ReportedError("Syntax Error: Invalid number, expected digit but got: \"e\".", 1, 3))
        #expect(lexError("0x1") == ReportedError("Syntax Error: Invalid number, expected digit but got: \"x\".", 1, 2))
        #expect(lexError("1y") == ReportedError("Syntax Error: Invalid number, expected digit but got: \"y\".", 1, 2))
        #expect(
            lexError("1_000") == ReportedError("Syntax Error: Invalid number, expected digit but got: \"_\".", 1, 2))
        #expect(
            lexError("1.5.2") == ReportedError("Syntax Error: Invalid number, expected digit but got: \".\".", 1, 4))
        #expect(
            lexError("2e3.1") == ReportedError("Syntax Error: Invalid number, expected digit but got: \".\".", 1, 4))
        #expect(lexError("-") == ReportedError("Syntax Error: Invalid number, expected digit but got: <EOF>.", 1, 2))
        #expect(lexError("- 1") == ReportedError("Syntax Error: Invalid number, expected digit but got: \" \".", 1, 2))
        #expect(lexError("-x") == ReportedError("Syntax Error: Invalid number, expected digit but got: \"x\".", 1, 2))
        #expect(lexError("1e\"") == ReportedError("Syntax Error: Invalid number, expected digit but got: '\"'.", 1, 3))
        // Only ASCII letters start names, so this number ends cleanly before an unexpected character.
        #expect(lexError("7é") == ReportedError("Syntax Error: Unexpected character: U+00E9.", 1, 2))
    }

    // MARK: - Strings

    @Test func simpleStrings() throws {
        #expect(try lexAll("\"Sigur Rós\"") == [LexedToken(.string, 0, 12, "Sigur Rós")])
        #expect(try lexAll("\"\"") == [LexedToken(.string, 0, 2, "")])
        #expect(try stringValue("\" padded \"") == " padded ")
    }

    @Test func eachEscapedCharacter() throws {
        #expect(try stringValue(#""\"""#) == "\"")
        #expect(try stringValue(#""\\""#) == "\\")
        #expect(try stringValue(#""\/""#) == "/")
        #expect(try stringValue(#""\b""#) == "\u{8}")
        #expect(try stringValue(#""\f""#) == "\u{C}")
        #expect(try stringValue(#""\n""#) == "\n")
        #expect(try stringValue(#""\r""#) == "\r")
        #expect(try stringValue(#""\t""#) == "\t")
        #expect(try stringValue(#""a\tb\\c\"d""#) == "a\tb\\c\"d")
    }

    @Test func fixedWidthUnicodeEscapes() throws {
        #expect(try stringValue(#""\u0041\u00e9\u266B""#) == "Aé♫")
        #expect(try stringValue(#""caf\u00E9!""#) == "café!")
        #expect(try stringValue(#""\u0000""#) == "\u{0}")
    }

    @Test func legacySurrogatePairEscapesMakeOneScalar() throws {
        #expect(try stringValue(#""\uD83D\uDE00""#) == "\u{1F600}")
        #expect(try stringValue(#""x\uD834\uDD1Ey""#) == "x\u{1D11E}y")
    }

    @Test func variableWidthUnicodeEscapes() throws {
        #expect(try stringValue(#""\u{1F600}""#) == "\u{1F600}")
        #expect(try stringValue(#""\u{0}\u{41}\u{00000041}""#) == "\u{0}AA")
        #expect(try stringValue(#""\u{10FFFF}""#) == "\u{10FFFF}")
        #expect(try stringValue(#""\u{e9}""#) == "é")
    }

    @Test func rawNonASCIIAndControlCharactersStayAsWritten() throws {
        #expect(try stringValue("\"東京 ♪ \u{1F3B8}\"") == "東京 ♪ \u{1F3B8}")
        #expect(try stringValue("\"a\u{7}b\"") == "a\u{7}b")
    }

    @Test func stringErrors() {
        #expect(lexError("\"never closed") == ReportedError("Syntax Error: Unterminated string.", 1, 14))
        #expect(lexError("\"line\nbreak\"") == ReportedError("Syntax Error: Unterminated string.", 1, 6))
        #expect(lexError("\"cr\rbreak\"") == ReportedError("Syntax Error: Unterminated string.", 1, 4))
        #expect(
            lexError(#""ok \x""#) == ReportedError(#"Syntax Error: Invalid character escape sequence: "\x"."#, 1, 5))
        #expect(lexError(#""\"#) == ReportedError(#"Syntax Error: Invalid character escape sequence: "\"."#, 1, 2))
        #expect(lexError(#""\é""#) == ReportedError(#"Syntax Error: Invalid character escape sequence: "\é"."#, 1, 2))
        #expect(
            lexError("'single'")
                == ReportedError(
                    "Syntax Error: Unexpected single quote character ('), did you mean to use a double quote (\")?", 1,
                    1))
    }

    @Test func unicodeEscapeErrors() {
        #expect(
            lexError(#""\u12G4""#) == ReportedError(#"Syntax Error: Invalid Unicode escape sequence: "\u12G4"."#, 1, 2))
        #expect(
            lexError(#""\u12""#) == ReportedError(#"Syntax Error: Invalid Unicode escape sequence: "\u12""."#, 1, 2))
        #expect(lexError(#""\u"#) == ReportedError(#"Syntax Error: Invalid Unicode escape sequence: "\u"."#, 1, 2))
        // Lone or mismatched surrogates are not scalar values.
        #expect(
            lexError(#""\uD83D""#) == ReportedError(#"Syntax Error: Invalid Unicode escape sequence: "\uD83D"."#, 1, 2))
        #expect(
            lexError(#""\uDE00\uD83D""#)
                == ReportedError(#"Syntax Error: Invalid Unicode escape sequence: "\uDE00"."#, 1, 2))
        #expect(
            lexError(#""\uD83D\u0041""#)
                == ReportedError(#"Syntax Error: Invalid Unicode escape sequence: "\uD83D"."#, 1, 2))
        #expect(
            lexError(#""\uD83D\uD83D""#)
                == ReportedError(#"Syntax Error: Invalid Unicode escape sequence: "\uD83D"."#, 1, 2))
        // Braced escapes: any scalar value, never a surrogate, at least one digit, at most eight.
        #expect(
            lexError(#""\u{D800}""#)
                == ReportedError(#"Syntax Error: Invalid Unicode escape sequence: "\u{D800}"."#, 1, 2))
        #expect(
            lexError(#""\u{110000}""#)
                == ReportedError(#"Syntax Error: Invalid Unicode escape sequence: "\u{110000}"."#, 1, 2))
        #expect(lexError(#""\u{}""#) == ReportedError(#"Syntax Error: Invalid Unicode escape sequence: "\u{}"."#, 1, 2))
        #expect(
            lexError(#""\u{12345678}""#)
                == ReportedError(#"Syntax Error: Invalid Unicode escape sequence: "\u{12345678}"."#, 1, 2))
        #expect(
            lexError(#""\u{FFFFFFFFF}""#)
                == ReportedError(#"Syntax Error: Invalid Unicode escape sequence: "\u{FFFFFFFF"."#, 1, 2))
        #expect(
            lexError(#""\u{000000041}""#)
                == ReportedError(#"Syntax Error: Invalid Unicode escape sequence: "\u{000000041"."#, 1, 2))
        #expect(
            lexError(#""\u{1F60""#)
                == ReportedError(#"Syntax Error: Invalid Unicode escape sequence: "\u{1F60""."#, 1, 2))
        #expect(
            lexError(#""\u{x}""#) == ReportedError(#"Syntax Error: Invalid Unicode escape sequence: "\u{x"."#, 1, 2))
    }

    // MARK: - Block strings

    @Test func blockStringsCookTheirLines() throws {
        #expect(
            try lexAll("\"\"\"\n  Hello,\n    World!\n\"\"\"") == [LexedToken(.blockString, 0, 27, "Hello,\n  World!")])
        #expect(try stringValue("\"\"\"no escapes: \\n \\u0041\"\"\"") == "no escapes: \\n \\u0041")
    }

    @Test func blockStringsKeepQuotesAndTurnEscapedTripleQuotesIntoQuotes() throws {
        #expect(try stringValue(#""""say "hi" and \""" please""""#) == #"say "hi" and """ please"#)
        #expect(try stringValue(#""""\"""\"""""""#) == #""""""""#)
    }

    @Test func blockStringsNormaliseLineTerminators() throws {
        #expect(try stringValue("\"\"\"a\r\nb\rc\nd\"\"\"") == "a\nb\nc\nd")
    }

    @Test func unterminatedBlockStringFailsAtTheEnd() {
        #expect(lexError("\"\"\"one\ntwo") == ReportedError("Syntax Error: Unterminated string.", 2, 4))
        #expect(lexError("\"\"\"a \\\"\"\"") == ReportedError("Syntax Error: Unterminated string.", 1, 10))
    }

    // MARK: - Unexpected characters and locations

    @Test func charactersThatStartNoToken() {
        #expect(lexError("a ? b") == ReportedError("Syntax Error: Unexpected character: \"?\".", 1, 3))
        #expect(lexError("..") == ReportedError("Syntax Error: Unexpected character: \".\".", 1, 1))
        #expect(lexError("a\u{0}") == ReportedError("Syntax Error: Unexpected character: U+0000.", 1, 2))
        #expect(lexError("x\u{7}") == ReportedError("Syntax Error: Unexpected character: U+0007.", 1, 2))
        #expect(lexError("café") == ReportedError("Syntax Error: Unexpected character: U+00E9.", 1, 4))
        #expect(lexError("\u{1F3B8}") == ReportedError("Syntax Error: Unexpected character: U+1F3B8.", 1, 1))
        #expect(
            lexError(bytes: [0x61, 0x20, 0xFF]) == ReportedError("Syntax Error: Unexpected character: U+FFFD.", 1, 3))
    }

    @Test func errorLocationsCountEveryLineTerminatorAndScalar() {
        #expect(lexError("a\r\nb\r\n  ?") == ReportedError("Syntax Error: Unexpected character: \"?\".", 3, 3))
        #expect(lexError("a\rb\r\r?") == ReportedError("Syntax Error: Unexpected character: \"?\".", 4, 1))
        #expect(lexError("\"é東\u{1F3B8}\" ?") == ReportedError("Syntax Error: Unexpected character: \"?\".", 1, 7))
        #expect(lexError("\"\"\"\n\n\"\"\" \t?") == ReportedError("Syntax Error: Unexpected character: \"?\".", 3, 6))
        #expect(lexError("\u{FEFF}?") == ReportedError("Syntax Error: Unexpected character: \"?\".", 1, 2))
    }
}
