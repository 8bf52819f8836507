/// Stream directives are used on list fields
///
/// `@stream` delivers a list item by item, so it may only be on a field whose type is a list
/// (nullable or not); an inner list of a list of lists is never streamed on its own.
/// Incremental delivery RFC (graphql-spec branch `incremental-integration-validation`),
/// "Stream Directives Are Used On List Fields"; graphql-js 17 `StreamDirectiveOnListFieldRule`.
final class StreamDirectiveOnListFieldRule: ValidationVisitor {
    static let rule = ValidationRule(name: "StreamDirectiveOnListField") { StreamDirectiveOnListFieldRule(context: $0) }
    private let context: ValidationContext
    let events: ValidationEvents = [.directive]
    init(context: ValidationContext) { self.context = context }

    func enterDirective(_ directive: Directive, location: DirectiveLocation?) {
        // On a fragment `@stream` is KnownDirectives' to report; the field around it is not its field.
        guard directive.name.value == "stream", location == .field,
            let field = context.typeInfo.fieldDefinition, let parentType = context.typeInfo.parentType
        else { return }
        switch field.type {
        case .list, .nonNull(.list): return
        default:
            context.report(
                "StreamDirectiveOnListField",
                "Directive \"@stream\" cannot be used on non-list field \"\(parentType).\(field.name)\".",
                at: [directive.loc])
        }
    }
}
