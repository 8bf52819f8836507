// Documents built to make validation slow: thousands of repeated fields, repeated inline
// fragments, fragments spread side by side, fragment cycles, deep nesting. Each must get
// graphql-js 16's exact verdict (errors, order, locations, the 100-error limit; the
// expected values below are graphql-js's for the same SDL and text, see bench/hostile.py)
// and finish quickly. The time bound is generous (debug builds, busy CI machines): it
// guards against a return to quadratic-or-worse behaviour, not for speed. bench/hostile.py
// measures the release-build figures beside graphql-js and graphql-core.
import Dispatch
import Testing

@testable import GraphQL

@Suite struct HostileShapesTests {
    private static let sdl = """
        type Query { artist: Artist node: Node }
        interface Node { id: ID }
        type Artist implements Node { id: ID name: String friends: [Artist] }
        """

    /// `sdl` with a second Node type whose `name` is an Int: identical text under the two
    /// types means different fields.
    private static let sdlWithAlbums =
        sdl + "\ntype Album implements Node { id: ID name: Int friends: [Album] }"

    /// Validates `text`, checking it takes under `seconds`; returns the errors.
    private func timedErrors(_ text: String, sdl: String = sdl, seconds: Double = 10) throws -> [GraphQLError] {
        let schema = try buildSchema(sdl: sdl)
        let source = Source(text)
        let document = try parse(source)
        let start = DispatchTime.now().uptimeNanoseconds
        let errors = validate(schema: schema, document: document, source: source)
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        #expect(elapsed < seconds)
        return errors
    }

    private func timedMessages(_ text: String) throws -> [String] {
        try timedErrors(text).map(\.message)
    }

    private static func at(_ error: GraphQLError) -> [String] {
        error.locations.map { "\($0.line):\($0.column)" }
    }

    private let tooMany = "Too many validation errors, error limit reached. Validation aborted."

    @Test func thousandsOfRepeatedFieldsAreValid() throws {
        #expect(try timedMessages("{ artist { " + String(repeating: "name ", count: 3000) + "} }") == [])
    }

    @Test func thousandsOfRepeatedInlineFragmentsAreValid() throws {
        let text = "{ node { " + String(repeating: "... on Artist { name } ", count: 1500) + "} }"
        #expect(try timedMessages(text) == [])
    }

    @Test func repeatedInlineFragmentsWithSubSelectionsAreValid() throws {
        let text = "{ node { " + String(repeating: "... on Artist { friends { name } } ", count: 1200) + "} }"
        #expect(try timedMessages(text) == [])
    }

    @Test func manyFragmentsSideBySideAreValid() throws {
        var text = "{ artist { " + (0..<400).map { "...G\($0)" }.joined(separator: " ") + " } }\n"
        for i in 0..<400 { text += "fragment G\(i) on Artist { name friends { name } }\n" }
        #expect(try timedMessages(text) == [])
    }

    @Test func deeplyNestedRepeatedFieldsValidate() throws {
        var nested = "name"
        for _ in 0..<60 { nested = "friends { \(nested) friends { name } }" }
        #expect(try timedMessages("{ artist { \(nested) } }") == [])
    }

    @Test func hundredsOfRepeatedObjectFieldsValidate() throws {
        #expect(try timedMessages("{ artist { " + String(repeating: "friends { name id } ", count: 200) + "} }") == [])
    }

    @Test func fragmentsSpreadingEachOtherValidate() throws {
        // Each fragment spreads the next and one further along: a dense acyclic graph.
        let n = 150
        var text = "{ artist { ...F0 } }\n"
        for i in 0..<n {
            let next = i + 1 < n ? " ...F\(i + 1)" : ""
            let jump = i + 5 < n ? " ...F\(i + 5)" : ""
            text += "fragment F\(i) on Artist { name\(next)\(jump) }\n"
        }
        #expect(try timedMessages(text) == [])
    }

    @Test func aLongAcyclicFragmentChainIsValid() throws {
        // 600 fragments, each one level deeper: 1,200 levels through spreads.
        let n = 600
        var text = "{ artist { ...D0 } artist { ...D0 } }\n"
        for i in 0..<n {
            text +=
                i + 1 < n
                ? "fragment D\(i) on Artist { friends { name ...D\(i + 1) } }\n" : "fragment D\(i) on Artist { name }\n"
        }
        #expect(try timedMessages(text) == [])
    }

    @Test func aFragmentCycleThroughDeepNestingReportsTheCycle() throws {
        // 250 fragments nesting one level each and closing into a cycle: graphql-js reports
        // the cycle once, at the 250 spreads along it, and nothing else.
        let n = 250
        var text = "{ artist { ...C0 } }"
        for i in 0..<n { text += "\nfragment C\(i) on Artist { friends { name ...C\((i + 1) % n) } }" }
        let errors = try timedErrors(text)
        #expect(errors.count == 1)
        let via = (1..<n).map { "\"C\($0)\"" }.joined(separator: ", ")
        #expect(errors.first?.message == "Cannot spread fragment \"C0\" within itself via \(via).")
        #expect(
            errors.first.map(Self.at)
                == (0..<n).map { "\($0 + 2):\("fragment C\($0) on Artist { friends { name ".count + 1)" })
        #expect(errors.first?.extensions["rule"] == .string("NoFragmentCycles"))
    }

    @Test func pairsOfFragmentsInCyclesEachReportTheirCycle() throws {
        let n = 60
        var text = "{ artist { " + (0..<n).map { "...A\($0)" }.joined(separator: " ") + " } }"
        for i in 0..<n {
            text += "\nfragment A\(i) on Artist { name ...B\(i) }\nfragment B\(i) on Artist { id ...A\(i) }"
        }
        let errors = try timedErrors(text)
        #expect(
            errors.map(\.message) == (0..<n).map { "Cannot spread fragment \"A\($0)\" within itself via \"B\($0)\"." })
        #expect(errors.first.map(Self.at) == ["2:30", "3:28"])
        #expect(errors.last.map(Self.at) == ["120:31", "121:29"])
    }

    @Test func oneConflictAmongThousandsOfRepeatedFieldsHitsTheErrorLimit() throws {
        // Each of the 3,000 `name` fields conflicts with the aliased `id`: the first 100
        // pairs are reported, then the limit.
        let errors = try timedErrors("{ artist { " + String(repeating: "name ", count: 3000) + "name: id } }")
        #expect(errors.count == 101)
        #expect(
            errors.first?.message
                == "Fields \"name\" conflict because \"name\" and \"id\" are different fields. Use different aliases on the fields to fetch both if this was intentional."
        )
        #expect(errors.first.map(Self.at) == ["1:12", "1:15012"])
        #expect(errors[99].message == errors[0].message)
        #expect(Self.at(errors[99]) == ["1:507", "1:15012"])
        #expect(errors.last?.message == tooMany)
    }

    @Test func aConflictBelowRepeatedInlineFragmentsIsReportedPerPair() throws {
        let text =
            "{ node { " + String(repeating: "... on Artist { friends { name } } ", count: 1200)
            + "... on Artist { friends { name: id } } } }"
        let errors = try timedErrors(text)
        #expect(errors.count == 101)
        #expect(
            errors.first?.message
                == "Fields \"friends\" conflict because subfields \"name\" conflict because \"name\" and \"id\" are different fields. Use different aliases on the fields to fetch both if this was intentional."
        )
        #expect(errors.first.map(Self.at) == ["1:26", "1:36", "1:42026", "1:42036"])
        #expect(errors.last?.message == tooMany)
    }

    @Test func aConflictingFragmentAmongHundredsSpreadSideBySide() throws {
        var text = "{ artist { " + (0..<400).map { "...G\($0)" }.joined(separator: " ") + " } }\n"
        for i in 0..<400 {
            text += "fragment G\(i) on Artist { name friends { \(i == 399 ? "name: id" : "name") } }\n"
        }
        let errors = try timedErrors(text)
        #expect(errors.count == 101)
        #expect(errors.first.map(Self.at) == ["2:30", "2:40", "401:32", "401:42"])
        #expect(errors.last?.message == tooMany)
    }

    @Test func aliasedPairsStopAtTheErrorLimit() throws {
        let errors = try timedErrors(
            "{ artist { " + (0..<150).map { "a\($0): name a\($0): id" }.joined(separator: " ") + " } }")
        #expect(errors.count == 101)
        #expect(errors.first.map(Self.at) == ["1:12", "1:21"])
        #expect(errors.last?.message == tooMany)
    }

    @Test func largerRepetitionsOfEachKindAreValid() throws {
        // The larger sizes of bench/hostile.py: graphql-js needs from seconds to minutes on
        // each; all are valid for it.
        #expect(try timedMessages("{ artist { " + String(repeating: "name ", count: 10000) + "} }") == [])
        #expect(
            try timedMessages(
                "{ node { " + String(repeating: "... on Artist { friends { name } } ", count: 4000) + "} }")
                == [])
        var sideBySide = "{ artist { " + (0..<1500).map { "...G\($0)" }.joined(separator: " ") + " } }\n"
        for i in 0..<1500 { sideBySide += "fragment G\(i) on Artist { name friends { name } }\n" }
        #expect(try timedMessages(sideBySide) == [])
        #expect(try timedMessages("{ artist { " + String(repeating: "friends { name id } ", count: 2000) + "} }") == [])
    }

    @Test func identicalTextUnderAnotherTypeIsComparedByItsFields() throws {
        // `friends { name }` written 1,201 times, the last under Album, whose `name` is an
        // Int: repeated text shares one shape per parent type only, so each of the first 100
        // Artist copies is reported against the Album one (graphql-js's errors).
        let text =
            "{ node { " + String(repeating: "... on Artist { friends { name } } ", count: 1200)
            + "... on Album { friends { name } } } }"
        let errors = try timedErrors(text, sdl: Self.sdlWithAlbums)
        #expect(errors.count == 101)
        #expect(
            errors.first?.message
                == "Fields \"friends\" conflict because subfields \"name\" conflict because they return conflicting types \"String\" and \"Int\". Use different aliases on the fields to fetch both if this was intentional."
        )
        #expect(errors.first.map(Self.at) == ["1:26", "1:36", "1:42025", "1:42035"])
        #expect(Self.at(errors[99]) == ["1:3491", "1:3501", "1:42025", "1:42035"])
        #expect(errors.last?.message == tooMany)
    }

    @Test func variablesBelowThousandsOfInlineFragmentsAreChecked() throws {
        // An operation without spreads is not walked again for them, and its own variable
        // usages still count; one with a spread still reaches its fragment's usages.
        let withoutSpreads =
            "{ node { " + String(repeating: "... on Artist { name } ", count: 1000)
            + "... on Artist { friends @include(if: $v) { name } } } }"
        let errors = try timedErrors(withoutSpreads)
        #expect(errors.map(\.message) == ["Variable \"$v\" is not defined."])
        #expect(errors.first.map(Self.at) == ["1:23047", "1:1"])
        let withSpread =
            "query Q { node { " + String(repeating: "... on Artist { friends { name } } ", count: 1000)
            + "... on Artist { friends { name ...F } } } }\nfragment F on Artist { id @skip(if: $w) }"
        let spreadErrors = try timedErrors(withSpread)
        #expect(spreadErrors.map(\.message) == ["Variable \"$w\" is not defined by operation \"Q\"."])
        #expect(spreadErrors.first.map(Self.at) == ["2:37", "1:1"])
    }

    @Test func nestingPastTheLimitIsRefusedAtTheDefinitionAfterItsCycles() throws {
        // A chain nesting deeper than the limit beside a cycle: the cycle is reported
        // first, then the refusal naming the limit and the definition.
        let n = FragmentNesting.maxNestingDepth / 2 + 1
        var text = "query Deep { artist { ...D0 } }\nfragment X on Artist { ...Y }\nfragment Y on Artist { ...X }"
        for i in 0..<n {
            text +=
                i + 1 < n
                ? "\nfragment D\(i) on Artist { friends { ...D\(i + 1) } }" : "\nfragment D\(i) on Artist { name }"
        }
        let errors = try timedErrors(text, seconds: 30)
        #expect(
            errors.map(\.message) == [
                "Cannot spread fragment \"X\" within itself via \"Y\".",
                "Validation aborted: the selections of \"Deep\" nest more than \(FragmentNesting.maxNestingDepth) levels deep through fragment spreads (the validation nesting limit).",
            ])
        #expect(errors.last.map(Self.at) == ["1:1"])
    }
}
