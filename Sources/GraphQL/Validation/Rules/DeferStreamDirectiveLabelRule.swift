/// Defer and stream directive labels are unique
///
/// A `label` of `@defer` or `@stream` names its pending notice in the response: it must be
/// known when the document is validated (no variable) and be unique among the document's
/// `@defer` and `@stream` labels. `label: null` is no label at all.
/// Incremental delivery RFC (graphql-spec branch `incremental-integration-validation`),
/// "Defer And Stream Directive Labels Are Unique"; graphql-js 17
/// `DeferStreamDirectiveLabelRule` (which also refuses `null`, where the RFC does not).
final class DeferStreamDirectiveLabelRule: ValidationVisitor {
    static let rule = ValidationRule(name: "DeferStreamDirectiveLabel") { DeferStreamDirectiveLabelRule(context: $0) }
    private let context: ValidationContext
    let events: ValidationEvents = [.directive]
    private var knownLabels: [String: Directive] = [:]
    init(context: ValidationContext) { self.context = context }

    func enterDirective(_ directive: Directive, location: DirectiveLocation?) {
        let name = directive.name.value
        guard name == "defer" || name == "stream",
            let label = directive.arguments.first(where: { $0.name.value == "label" })
        else { return }
        switch label.value {
        case .variable:
            context.report(
                "DeferStreamDirectiveLabel", "Argument \"@\(name)(label:)\" must be a static string.",
                at: [directive.loc])
        case .string(let string):
            if let first = knownLabels[string.value] {
                context.report(
                    "DeferStreamDirectiveLabel",
                    "Value for arguments \"\(first.name.value)(label:)\" and \"\(name)(label:)\" must be unique across all Defer/Stream directive usages.",
                    at: [first.loc, directive.loc])
            } else {
                knownLabels[string.value] = directive
            }
        default:
            // `null`: no label. Other literals are ValuesOfCorrectType's to report.
            return
        }
    }
}
