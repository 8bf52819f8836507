// `@defer` and `@stream` (the incremental delivery RFC, graphql-spec branch
// `incremental-integration`, §3.13 "Directives"), with graphql-js 17's arguments and
// descriptions. Not among `specifiedDirectives`: as in graphql-js 17, a schema carries them
// only when it opts in to incremental delivery (`addingIncrementalDirectives`).

extension DirectiveModel {
    /// `@defer(if: Boolean! = true, label: String) on FRAGMENT_SPREAD | INLINE_FRAGMENT`.
    public static let deferDirective = DirectiveModel(
        name: "defer",
        description: "Directs the executor to defer this fragment when the `if` argument is true or undefined.",
        locations: [.fragmentSpread, .inlineFragment],
        arguments: [
            InputValueModel(
                name: "if", description: "Deferred when true or undefined.", type: .nonNull(.named("Boolean")),
                defaultValue: .boolean(BooleanValue(value: true))),
            InputValueModel(name: "label", description: "Unique name", type: .named("String")),
        ])

    /// `@stream(initialCount: Int! = 0, if: Boolean! = true, label: String) on FIELD`.
    public static let streamDirective = DirectiveModel(
        name: "stream",
        description: "Directs the executor to stream plural fields when the `if` argument is true or undefined.",
        locations: [.field],
        arguments: [
            InputValueModel(
                name: "initialCount", description: "Number of items to return immediately",
                type: .nonNull(.named("Int")), defaultValue: .int(IntValue(value: "0"))),
            InputValueModel(
                name: "if", description: "Stream when true or undefined.", type: .nonNull(.named("Boolean")),
                defaultValue: .boolean(BooleanValue(value: true))),
            InputValueModel(name: "label", description: "Unique name", type: .named("String")),
        ])
}

extension Schema {
    /// True when the schema defines both `@defer` and `@stream` (its own definitions count).
    public var supportsIncrementalDelivery: Bool { directive("defer") != nil && directive("stream") != nil }

    /// This schema with `@defer` and `@stream` added where it does not define them, and the
    /// `Int` scalar `@stream`'s `initialCount` needs when the schema had none (graphql-js places
    /// types referenced only by directives before the introspection types).
    public func addingIncrementalDirectives() -> Schema {
        var schema = self
        for directive in [DirectiveModel.deferDirective, .streamDirective] where schema.directive(directive.name) == nil
        {
            schema.directives.append(directive)
        }
        for name in ["Boolean", "String", "Int"] where schema.types[name] == nil {
            guard let standard = GraphQLNamedType.standardTypes[name] else { continue }
            schema.types[name] = standard
            let position = schema.typeNames.firstIndex { $0.hasPrefix("__") } ?? schema.typeNames.count
            schema.typeNames.insert(name, at: position)
        }
        return schema
    }
}
