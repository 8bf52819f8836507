import Testing

@testable import GraphQL

/// The AST's memory layout choices (issue: a parsed schema must stay under 4× its source
/// in extra memory) must not change what the AST says.
@Suite struct ASTFootprintTests {
    @Test func locationIsTwo32BitOffsets() throws {
        #expect(MemoryLayout<Location>.size == 8)
        let loc = Location(start: 2_000_000_000, end: 2_000_000_007)
        #expect(loc.start == 2_000_000_000)
        #expect(loc.end == 2_000_000_007)
        #expect(Location.none.start == -1)
        #expect(Location.none.end == -1)
    }

    @Test func parsedDescriptionsCookEscapesWhenRead() throws {
        let document = try parse(#""tab\there \u{1F3B8} \"q\"" scalar A"#)
        guard case .scalarType(let scalar) = document.definitions[0] else {
            Issue.record("expected a scalar definition")
            return
        }
        let description = try #require(scalar.description)
        #expect(description.value == "tab\there 🎸 \"q\"")
        #expect(description.block == false)
        #expect(description.loc == Location(start: 0, end: 27))
    }

    @Test func parsedBlockDescriptionsGoThroughBlockStringValue() throws {
        let document = try parse("\"\"\"\n    first\n      indented \\\"\"\"\n\n\"\"\"\ntype T { f: Int }")
        guard case .objectType(let type) = document.definitions[0] else {
            Issue.record("expected an object type")
            return
        }
        let description = try #require(type.description)
        #expect(description.value == "first\n  indented \"\"\"")
        #expect(description.block == true)
    }

    @Test func settingAParsedDescriptionReplacesIt() throws {
        let document = try parse("\"old\" scalar A")
        guard case .scalarType(var scalar) = document.definitions[0] else {
            Issue.record("expected a scalar definition")
            return
        }
        scalar.description?.value = "new"
        #expect(scalar.description?.value == "new")
        #expect(print(Definition.scalarType(scalar)) == "\"new\"\nscalar A")
    }

    @Test func longListsAreStoredWithoutDoublingSlack() throws {
        let fields = (0..<100).map { "f\($0): Int" }.joined(separator: " ")
        let document = try parse("type T { \(fields) }")
        guard case .objectType(let type) = document.definitions[0] else {
            Issue.record("expected an object type")
            return
        }
        #expect(type.fields.count == 100)
        #expect(type.fields[99].name.value == "f99")
        // Grown by doubling, 100 fields would sit in room for 128.
        #expect(type.fields.capacity < 110)
    }
}
