/// What a resolver may know about the field it resolves (graphql-js `GraphQLResolveInfo`).
///
/// Built only for application resolvers, never for default property reads, so it costs
/// nothing on the static-data path.
public struct ResolveInfo: Sendable {
    let plan: FieldPlan
    let execution: ExecutionContext
    /// Response path of this field: response keys and list indices from the root (§7.1.2).
    public let path: [PathComponent]

    init(plan: FieldPlan, execution: ExecutionContext, path: [PathComponent]) {
        self.plan = plan
        self.execution = execution
        self.path = path
    }

    /// The field's name in the schema (not its alias).
    public var fieldName: String { plan.fieldName }
    /// The merged field nodes of this response key (§6.3.2 CollectFields).
    public var fieldNodes: [Field] { plan.fieldNodes }
    public var returnType: TypeReference { plan.definition.type }
    /// Name of the object type whose field this is.
    public var parentType: String { plan.parentType }
    public var schema: Schema { execution.schema }
    public var operation: OperationDefinition { execution.operation }
    public var fragments: [String: FragmentDefinition] { execution.fragments }
    /// Coerced variable values (spec §6.1.2).
    public var variableValues: JSONObject { execution.variableValues }
    /// The per-request context value given to `execute`.
    public var context: (any Sendable)? { execution.contextValue }
    /// Names of the fields selected under this field for object type `typeName`, in
    /// selection order (for look-ahead, e.g. asking an upstream only for selected parts);
    /// empty when the field has no selection set or collecting fails.
    public func selectedFieldNames(on typeName: String) -> [String] {
        guard case .success(let sub) = plan.subPlan(for: typeName, in: execution) else { return [] }
        return sub.fields.map(\.fieldName)
    }
}
