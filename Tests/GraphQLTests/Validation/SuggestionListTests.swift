// The "Did you mean" machinery: graphql-js's lexical distance threshold, ordering by
// distance then natural order, and message formatting with at most five names.
import Testing

@testable import GraphQL

@Suite struct SuggestionListTests {
    @Test func closeOptionsSortedByDistanceThenNaturalOrder() {
        #expect(
            Suggestions.list("int", ["Int", "Cat", "ID", "Pet", "Point", "Date", "Float"]) == [
                "Int", "Cat", "ID", "Pet", "Point",
            ])
        #expect(Suggestions.list("nmae", ["name", "game", "id"]) == ["name", "game"])
        #expect(Suggestions.list("title", ["titles", "tile", "subtitle"]) == ["tile", "titles", "subtitle"])
        #expect(Suggestions.list("x", ["yy", "zzz"]) == [])
    }

    @Test func exactAndCaseOnlyMatchesComeFirst() {
        #expect(Suggestions.list("rock", ["ROCK", "FOLK", "rock"]) == ["rock", "ROCK", "FOLK"])
    }

    @Test func naturalOrderComparesDigitRunsAsNumbers() {
        #expect(Suggestions.naturalCompare("Item2", "Item10") < 0)
        #expect(Suggestions.naturalCompare("Item10", "Item2") > 0)
        #expect(Suggestions.naturalCompare("a", "b") < 0)
        #expect(Suggestions.naturalCompare("abc", "abc") == 0)
        #expect(Suggestions.naturalCompare("ab", "abc") < 0)
    }

    @Test func didYouMeanFormatsUpToFiveNames() {
        #expect(Suggestions.didYouMean([]) == "")
        #expect(Suggestions.didYouMean(["a"]) == #" Did you mean "a"?"#)
        #expect(Suggestions.didYouMean(["a", "b"]) == #" Did you mean "a" or "b"?"#)
        #expect(
            Suggestions.didYouMean(["a", "b", "c", "d", "e", "f"], subMessage: "the enum value")
                == #" Did you mean the enum value "a", "b", "c", "d", or "e"?"#)
    }
}
