// Documents built to make validation slow must finish quickly, valid or refused with a
// clear error. The time bound is generous (debug builds, busy CI machines): it guards
// against a return to quadratic-or-worse behaviour, not for speed. bench/validate.py
// measures the release-build figures.
import Dispatch
import Testing

@testable import GraphQL

@Suite struct HostileShapesTests {
    private static let sdl = """
        type Query { artist: Artist node: Node }
        interface Node { id: ID }
        type Artist implements Node { id: ID name: String friends: [Artist] }
        """

    /// Validates `text`, checking it takes under `seconds`; returns the error messages.
    private func timedMessages(_ text: String, seconds: Double = 10) throws -> [String] {
        let schema = try buildSchema(sdl: Self.sdl)
        let source = Source(text)
        let document = try parse(source)
        let start = DispatchTime.now().uptimeNanoseconds
        let errors = validate(schema: schema, document: document, source: source)
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        #expect(elapsed < seconds)
        return errors.map(\.message)
    }

    private let overBudget =
        "Validation aborted: comparing the fields that share response names needs more than 500000 steps."

    @Test func thousandsOfRepeatedFieldsAreRefused() throws {
        #expect(try timedMessages("{ artist { " + String(repeating: "name ", count: 3000) + "} }") == [overBudget])
    }

    @Test func thousandsOfRepeatedInlineFragmentsAreRefused() throws {
        let text = "{ node { " + String(repeating: "... on Artist { name } ", count: 1500) + "} }"
        #expect(try timedMessages(text) == [overBudget])
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

    @Test func manyFragmentsSideBySideAreRefused() throws {
        var text = "{ artist { " + (0..<400).map { "...G\($0)" }.joined(separator: " ") + " } }\n"
        for i in 0..<400 { text += "fragment G\(i) on Artist { name friends { name } }\n" }
        #expect(try timedMessages(text) == [overBudget])
    }
}
