// The incremental delivery rules (DeferStreamDirectiveLabel, DeferStreamDirectiveOnRootField,
// DeferStreamDirectiveOnValidOperations, StreamDirectiveOnListField) against the shared test
// schema with `@defer` and `@stream` added, including the points where the RFC and graphql-js 17
// differ (the RFC wins: `label: null` is valid, fragments defined before a subscription count).
import Testing

@testable import GraphQL

@Suite struct DeferStreamRulesTests {
    let schema: Schema
    init() throws { schema = try validationTestSchema.get().addingIncrementalDirectives() }

    private func errors(_ rule: ValidationRule, _ text: String) throws -> [String] {
        try renderedErrors(text, rules: [rule], schema: schema)
    }

    @Test func labelsAreStaticAndUnique() throws {
        let rule = DeferStreamDirectiveLabelRule.rule
        #expect(
            try errors(rule, #"{ band(id: 1) { ... @defer(label: "a") { name } tags @stream(label: "b") } }"#).isEmpty)
        #expect(
            try errors(rule, #"{ band(id: 1) { ... @defer(label: null) { name } ... @defer { formed } } }"#).isEmpty)
        #expect(
            try errors(rule, #"query ($l: String) { band(id: 1) { ... @defer(label: $l) { name } } }"#) == [
                #"Argument "@defer(label:)" must be a static string. @1:40"#
            ])
        #expect(
            try errors(
                rule,
                #"{ band(id: 1) { ...F @defer(label: "x") tags @stream(label: "x") } } fragment F on Band { name }"#)
                == [
                    #"Value for arguments "defer(label:)" and "stream(label:)" must be unique across all Defer/Stream directive usages. @1:22,1:46"#
                ])
    }

    @Test func noDeferOrStreamOnMutationOrSubscriptionRootFields() throws {
        let rule = DeferStreamDirectiveOnRootFieldRule.rule
        #expect(try errors(rule, #"mutation { rate(song: "s", stars: 1) { ... @defer { title } } }"#).isEmpty)
        #expect(
            try errors(rule, #"mutation { ... @defer { rate(song: "s", stars: 1) { title } } }"#) == [
                #"Defer directive cannot be used on root mutation type "Mutation". @1:16"#
            ])
        #expect(
            try errors(rule, "subscription { ...F @defer } fragment F on Subscription { songPlayed { title } }") == [
                #"Defer directive cannot be used on root subscription type "Subscription". @1:21"#
            ])
        #expect(try errors(rule, "{ bands @stream { name } }").isEmpty)
    }

    @Test func subscriptionsOnlyTakeDisabledDeferAndStream() throws {
        let rule = DeferStreamDirectiveOnValidOperationsRule.rule
        #expect(
            try errors(rule, "subscription ($d: Boolean) { songPlayed { ... @defer(if: $d) { title } } }").isEmpty)
        #expect(try errors(rule, "subscription { songPlayed { ... @defer(if: false) { title } } }").isEmpty)
        #expect(try errors(rule, "{ band(id: 1) { ... @defer { name } } }").isEmpty)
        // Defined before the subscription that spreads it: still checked (graphql-js 17 misses it).
        #expect(
            try errors(
                rule, "fragment F on Band { ... @defer { name } tags @stream }\nsubscription { encoreStarted { ...F } }"
            )
                == [
                    "Defer directive not supported on subscription operations. Disable `@defer` by setting the `if` argument to `false`. @1:26",
                    "Stream directive not supported on subscription operations. Disable `@stream` by setting the `if` argument to `false`. @1:47",
                ])
        // A selection that a literal @skip(if: true) removes is never executed.
        #expect(try errors(rule, "subscription { songPlayed { ... @defer @skip(if: true) { title } } }").isEmpty)
    }

    @Test func streamOnlyOnLists() throws {
        let rule = StreamDirectiveOnListFieldRule.rule
        #expect(try errors(rule, "{ bands @stream { name tags @stream } grid @stream }").isEmpty)
        #expect(
            try errors(rule, "{ band(id: 1) @stream(initialCount: 1) { name } }") == [
                #"Directive "@stream" cannot be used on non-list field "Query.band". @1:15"#
            ])
    }

    @Test func mergedFieldsAgreeOnStream() throws {
        let rule = OverlappingFieldsCanBeMergedRule.rule
        // Identical streams merge (the RFC; graphql-js 17 refuses them), so do fields with none.
        #expect(
            try errors(rule, "{ bands @stream(initialCount: 1) { name } bands @stream(initialCount: 1) { id } }")
                .isEmpty)
        #expect(try errors(rule, "{ band(id: 1) { tags tags } }").isEmpty)
        #expect(
            try errors(rule, "{ bands @stream(initialCount: 1) { name } bands @stream(initialCount: 2) { name } }") == [
                #"Fields "bands" conflict because they have differing stream directives. Use different aliases on the fields to fetch both if this was intentional. @1:3,1:43"#
            ])
        #expect(
            try errors(rule, "{ band(id: 1) { tags @stream ...F } } fragment F on Band { tags }") == [
                #"Fields "tags" conflict because they have differing stream directives. Use different aliases on the fields to fetch both if this was intentional. @1:17,1:60"#
            ])
        // Under a schema without `@stream` (graphql-js 16), the directive is only KnownDirectives' concern.
        #expect(
            try renderedErrors(
                "{ bands @stream(initialCount: 1) { name } bands { name } }", rules: [rule]
            ).isEmpty)
    }

    @Test func withoutTheDirectivesDeferIsUnknown() throws {
        #expect(
            try renderedErrors("{ band(id: 1) { ... @defer { name } } }", rules: [KnownDirectivesRule.rule]) == [
                #"Unknown directive "@defer". @1:21"#
            ])
        #expect(
            try renderedErrors(
                "{ band(id: 1) { ... @defer { name } } }", rules: incrementalDeliveryRules, schema: schema
            ).isEmpty)
    }
}
