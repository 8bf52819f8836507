import Testing

@testable import GraphQL

/// BlockStringValue() (spec §2.9.4): common indentation, blank first and last lines,
/// line terminators; and the same rules seen through the lexer.
@Suite struct BlockStringTests {
    @Test func removesTheCommonIndentOfTheLinesAfterTheFirst() {
        #expect(
            blockStringValue("\n    Tracks by year:\n      1999\n      2003\n  ") == "Tracks by year:\n  1999\n  2003")
    }

    @Test func theFirstLineKeepsItsIndentAndDoesNotSetTheCommonIndent() {
        #expect(blockStringValue("  first\n    second\n    third") == "  first\nsecond\nthird")
    }

    @Test func blankLinesDoNotSetTheCommonIndent() {
        #expect(blockStringValue("\n    a\n\n  \n    b\n") == "a\n\n\nb")
    }

    @Test func dropsWhitespaceOnlyLinesAtTheStartAndEnd() {
        #expect(blockStringValue("\n \t\n  line\n \n\t\n") == "line")
    }

    @Test func keepsBlankLinesInside() {
        #expect(blockStringValue("one\n\n\ntwo") == "one\n\n\ntwo")
    }

    @Test func whitespaceOnlyValuesBecomeEmpty() {
        #expect(blockStringValue("") == "")
        #expect(blockStringValue("   ") == "")
        #expect(blockStringValue("\n  \n\t\n") == "")
    }

    @Test func tabsCountAsIndentation() {
        #expect(blockStringValue("\n\t\tdeep\n\tshallow") == "\tdeep\nshallow")
    }

    @Test func mixedIndentIsRemovedCharacterByCharacter() {
        // Indentation is counted in whitespace characters, whichever they are.
        #expect(blockStringValue("\n \tx\n\t y") == "x\ny")
    }

    @Test func everyLineTerminatorEndsALineAndTheValueUsesNewlines() {
        #expect(blockStringValue("\r\n  a\r  b\n  c\r\n") == "a\nb\nc")
    }

    @Test func nonASCIITextIsKeptWhole() {
        #expect(blockStringValue("\n  Björk ♫\n    東京") == "Björk ♫\n  東京")
    }

    @Test func theLexerAppliesBlockStringValueAfterUnescapingTripleQuotes() throws {
        #expect(
            try stringValue("\"\"\"\n    Say \\\"\"\"hi\\\"\"\"\n      twice\n  \"\"\"")
                == "Say \"\"\"hi\"\"\"\n  twice")
    }

    @Test func escapedTripleQuotesSurviveIndentRemovalOnEveryLine() throws {
        #expect(
            try stringValue("\"\"\"\n    a \\\"\"\" b \\\"\"\"\n      \\\"\"\"c\n\n  \"\"\"")
                == "a \"\"\" b \"\"\"\n  \"\"\"c")
    }

    @Test func theLexerNormalisesCRLFInBlockStrings() throws {
        #expect(try stringValue("\"\"\"\r\n  line1\r\n  line2\r\n\"\"\"") == "line1\nline2")
    }

    @Test func aBackslashAloneIsJustABackslash() throws {
        #expect(try stringValue(#""""C:\music\new""""#) == #"C:\music\new"#)
        #expect(try stringValue(#""""ends with \ """"#) == #"ends with \ "#)
    }

    @Test func aBackslashRightBeforeTheClosingQuotesEscapesThem() {
        // `\"""` is an escaped triple quote, so the string is still open after it.
        #expect(lexError(#""""ends with \""""#) == ReportedError("Syntax Error: Unterminated string.", 1, 18))
    }
}
