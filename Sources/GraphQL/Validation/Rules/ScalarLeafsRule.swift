/// Scalar leafs
///
/// A field of a scalar or enum type must not have a selection set; a field of an object,
/// interface or union type must have one.
/// Spec §5.3.3 https://spec.graphql.org/September2025/#sec-Leaf-Field-Selections
final class ScalarLeafsRule: ValidationVisitor {
    static let rule = ValidationRule(name: "ScalarLeafs") { ScalarLeafsRule(context: $0) }
    private let context: ValidationContext
    let events: ValidationEvents = [.field]
    init(context: ValidationContext) { self.context = context }

    func enterField(_ field: Field) {
        guard let type = context.typeInfo.type, let kind = context.schema.kind(of: type.namedType) else { return }
        let name = field.name.value
        if kind.isLeafType {
            if let selectionSet = field.selectionSet {
                context.report(
                    "ScalarLeafs",
                    "Field \"\(name)\" must not have a selection since type \"\(type)\" has no subfields.",
                    at: [selectionSet.loc])
            }
        } else if let selectionSet = field.selectionSet {
            if selectionSet.selections.isEmpty {
                context.report(
                    "ScalarLeafs", "Field \"\(name)\" of type \"\(type)\" must have at least one field selected.",
                    at: [field.loc])
            }
        } else {
            context.report(
                "ScalarLeafs",
                "Field \"\(name)\" of type \"\(type)\" must have a selection of subfields. Did you mean \"\(name) { ... }\"?",
                at: [field.loc])
        }
    }
}
