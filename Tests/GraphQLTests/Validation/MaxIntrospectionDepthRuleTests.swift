// MaxIntrospectionDepthRule: valid and invalid documents against the shared test schema
// (ValidationTestSupport.swift), each error written out with its message and locations.
import Testing

@testable import GraphQL

@Suite struct MaxIntrospectionDepthRuleTests {
    @Test func shallowIntrospectionIsValid() throws {
        try expectErrors(
            MaxIntrospectionDepthRule.rule,
            #"""
            { __schema { types { fields { type { name ofType { name } } } } } }
            """#,
            [])
    }

    @Test func listsNestedThreeDeep() throws {
        try expectErrors(
            MaxIntrospectionDepthRule.rule,
            #"""
            { __type(name: "Band") { fields { type { interfaces { possibleTypes { name } } } } } }
            """#,
            [
                #"Maximum introspection depth exceeded @1:3"#
            ])
    }

    @Test func depthReachedThroughFragments() throws {
        try expectErrors(
            MaxIntrospectionDepthRule.rule,
            #"""
            { __schema { types { ...T } } }
            fragment T on __Type { inputFields { type { ...U } } }
            fragment U on __Type { fields { name } }
            """#,
            [])
    }
}
