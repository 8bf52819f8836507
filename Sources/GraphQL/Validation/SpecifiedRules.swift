/// Every validation rule of the GraphQL specification, in graphql-js 16.15's order
/// (`specifiedRules`), which puts the clearest error first when several rules object to
/// the same node. MaxIntrospectionDepth (graphql-js 16.9's recommended rule) comes last.
public let specifiedRules: [ValidationRule] = [
    // Spec §5.1.1 "Executable Definitions"
    ExecutableDefinitionsRule.rule,
    // Spec §5.2.1.1 "Operation Name Uniqueness"
    UniqueOperationNamesRule.rule,
    // Spec §5.2.2.1 "Lone Anonymous Operation"
    LoneAnonymousOperationRule.rule,
    // Spec §5.2.3.1 "Single Root Field"
    SingleFieldSubscriptionsRule.rule,
    // Spec §5.5.1.2 "Fragment Spread Type Existence"
    KnownTypeNamesRule.rule,
    // Spec §5.5.1.3 "Fragments on Object, Interface or Union Types"
    FragmentsOnCompositeTypesRule.rule,
    // Spec §5.8.2 "Variables Are Input Types"
    VariablesAreInputTypesRule.rule,
    // Spec §5.3.3 "Leaf Field Selections"
    ScalarLeafsRule.rule,
    // Spec §5.3.1 "Field Selections"
    FieldsOnCorrectTypeRule.rule,
    // Spec §5.5.1.1 "Fragment Name Uniqueness"
    UniqueFragmentNamesRule.rule,
    // Spec §5.5.2.1 "Fragment Spread Target Defined"
    KnownFragmentNamesRule.rule,
    // Spec §5.5.1.4 "Fragments Must Be Used"
    NoUnusedFragmentsRule.rule,
    // Spec §5.5.2.3 "Fragment Spread Is Possible"
    PossibleFragmentSpreadsRule.rule,
    // Spec §5.5.2.2 "Fragment Spreads Must Not Form Cycles"
    NoFragmentCyclesRule.rule,
    // Spec §5.8.1 "Variable Uniqueness"
    UniqueVariableNamesRule.rule,
    // Spec §5.8.3 "All Variable Uses Defined"
    NoUndefinedVariablesRule.rule,
    // Spec §5.8.4 "All Variables Used"
    NoUnusedVariablesRule.rule,
    // Spec §5.7.1 "Directives Are Defined"
    KnownDirectivesRule.rule,
    // Spec §5.7.3 "Directives Are Unique per Location"
    UniqueDirectivesPerLocationRule.rule,
    // Spec §5.4.1 "Argument Names"
    KnownArgumentNamesRule.rule,
    // Spec §5.4.2 "Argument Uniqueness"
    UniqueArgumentNamesRule.rule,
    // Spec §5.6.1 "Values of Correct Type"
    ValuesOfCorrectTypeRule.rule,
    // Spec §5.4.2.1 "Required Arguments"
    ProvidedRequiredArgumentsRule.rule,
    // Spec §5.8.5 "All Variable Usages Are Allowed"
    VariablesInAllowedPositionRule.rule,
    // Spec §5.3.2 "Field Selection Merging"
    OverlappingFieldsCanBeMergedRule.rule,
    // Spec §5.6.3 "Input Object Field Uniqueness"
    UniqueInputFieldNamesRule.rule,
    // graphql-js 16.9 recommended rule (no spec section): bounds introspection list nesting
    MaxIntrospectionDepthRule.rule,
]

/// `specifiedRules` plus the incremental delivery RFC's rules for `@defer` and `@stream`, in
/// graphql-js 17's order (after the directive rules): for schemas that carry both directives
/// (`Schema.addingIncrementalDirectives`) and executors that honour them (`executeIncrementally`).
public let incrementalDeliveryRules: [ValidationRule] = {
    var rules = specifiedRules
    let position = (rules.firstIndex { $0.name == "UniqueDirectivesPerLocation" } ?? rules.count - 1) + 1
    rules.insert(
        contentsOf: [
            // Incremental delivery RFC "Defer And Stream Directives Are Used On Valid Root Field"
            DeferStreamDirectiveOnRootFieldRule.rule,
            // Incremental delivery RFC "Defer And Stream Directives Are Used On Valid Operations"
            DeferStreamDirectiveOnValidOperationsRule.rule,
            // Incremental delivery RFC "Defer And Stream Directive Labels Are Unique"
            DeferStreamDirectiveLabelRule.rule,
            // Incremental delivery RFC "Stream Directives Are Used On List Fields"
            StreamDirectiveOnListFieldRule.rule,
        ], at: position)
    return rules
}()
