/// Defer and stream directives are used on valid root fields
///
/// `@defer` may not hold fields of the mutation or subscription root type, and `@stream`
/// may not be on one of their fields: a mutation's root fields run serially, a subscription's
/// root field is its event stream.
/// Incremental delivery RFC (graphql-spec branch `incremental-integration-validation`),
/// "Defer And Stream Directives Are Used On Valid Root Field"; graphql-js 17
/// `DeferStreamDirectiveOnRootFieldRule`.
final class DeferStreamDirectiveOnRootFieldRule: ValidationVisitor {
    static let rule = ValidationRule(name: "DeferStreamDirectiveOnRootField") {
        DeferStreamDirectiveOnRootFieldRule(context: $0)
    }
    private let context: ValidationContext
    let events: ValidationEvents = [.directive]
    init(context: ValidationContext) { self.context = context }

    func enterDirective(_ directive: Directive, location: DirectiveLocation?) {
        let kind: String
        switch directive.name.value {
        case "defer": kind = "Defer"
        case "stream": kind = "Stream"
        default: return
        }
        // The type of the selection set holding the fragment (for `@defer`) or the field.
        guard let parentType = context.typeInfo.parentType else { return }
        let schema = context.schema
        let root =
            parentType == schema.mutationType
            ? "mutation" : parentType == schema.subscriptionType ? "subscription" : nil
        guard let root else { return }
        context.report(
            "DeferStreamDirectiveOnRootField",
            "\(kind) directive cannot be used on root \(root) type \"\(parentType)\".", at: [directive.loc])
    }
}
