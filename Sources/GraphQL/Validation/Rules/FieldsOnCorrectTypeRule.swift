/// Fields on correct type
///
/// A field must be defined on the type it is selected on (or be `__typename`, or
/// `__schema`/`__type` on the query root). The error suggests types to spread into or
/// similarly named fields.
/// Spec §5.3.1 https://spec.graphql.org/September2025/#sec-Field-Selections
final class FieldsOnCorrectTypeRule: ValidationVisitor {
    static let rule = ValidationRule(name: "FieldsOnCorrectType") { FieldsOnCorrectTypeRule(context: $0) }
    private let context: ValidationContext
    let events: ValidationEvents = [.field]
    init(context: ValidationContext) { self.context = context }

    func enterField(_ field: Field) {
        guard let parent = context.typeInfo.parentType, !context.typeInfo.hasFieldDefinition else { return }
        let name = field.name.value
        var suggestion = Suggestions.didYouMean(
            suggestedTypeNames(parent, name), subMessage: "to use an inline fragment on")
        if suggestion.isEmpty {
            suggestion = Suggestions.didYouMean(
                Suggestions.list(name, context.schema.types[parent]?.fields.map(\.name) ?? []))
        }
        context.report(
            "FieldsOnCorrectType", "Cannot query field \"\(name)\" on type \"\(parent)\"." + suggestion, at: [field.loc]
        )
    }

    /// For an abstract type: the possible types and their interfaces that do define the
    /// field, most used first, interfaces before their implementations, then by name.
    private func suggestedTypeNames(_ typeName: String, _ fieldName: String) -> [String] {
        let schema = context.schema
        guard schema.types[typeName]?.isAbstractType ?? false else { return [] }
        var order: [String] = []
        var usage: [String: Int] = [:]
        var isInterface: [String: Bool] = [:]
        for possible in schema.possibleTypes(of: typeName) {
            guard case .object(let object) = schema.types[possible], object.field(fieldName) != nil else { continue }
            if usage[possible] == nil { order.append(possible) }
            usage[possible] = 1
            isInterface[possible] = false
            for interface in object.interfaces {
                guard schema.types[interface]?.field(fieldName) != nil else { continue }
                if usage[interface] == nil { order.append(interface) }
                usage[interface, default: 0] += 1
                isInterface[interface] = true
            }
        }
        return order.sorted { a, b in
            let (ua, ub) = (usage[a] ?? 0, usage[b] ?? 0)
            if ua != ub { return ua > ub }
            if isInterface[a] ?? false, schema.isSubType(a, b) { return true }
            if isInterface[b] ?? false, schema.isSubType(b, a) { return false }
            return Suggestions.naturalCompare(a, b) < 0
        }
    }
}
