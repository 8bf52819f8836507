// The single traversal behind `validate`: graphql-js `visit` with `visitWithTypeInfo`
// and `visitInParallel`, written out for this AST. Children are visited in graphql-js
// order (`QUERY_DOCUMENT_KEYS`, descriptions left out as the spec requires), type
// information is updated before a node's visitors run on enter and after they run on
// leave, and each event goes only to the rules that asked for it.

final class ValidationWalker {
    private let context: ValidationContext
    private let documentVisitors: [any ValidationVisitor]
    private let leaveDocumentVisitors: [any ValidationVisitor]
    private let operationVisitors: [any ValidationVisitor]
    private let leaveOperationVisitors: [any ValidationVisitor]
    private let fragmentDefinitionVisitors: [any ValidationVisitor]
    private let variableDefinitionVisitors: [any ValidationVisitor]
    private let selectionSetVisitors: [any ValidationVisitor]
    private let fieldVisitors: [any ValidationVisitor]
    private let leaveFieldVisitors: [any ValidationVisitor]
    private let fragmentSpreadVisitors: [any ValidationVisitor]
    private let inlineFragmentVisitors: [any ValidationVisitor]
    private let directivesVisitors: [any ValidationVisitor]
    private let directiveVisitors: [any ValidationVisitor]
    private let leaveDirectiveVisitors: [any ValidationVisitor]
    private let argumentVisitors: [any ValidationVisitor]
    private let valueVisitors: [any ValidationVisitor]
    private let leaveValueVisitors: [any ValidationVisitor]
    private let objectFieldVisitors: [any ValidationVisitor]
    private let namedTypeVisitors: [any ValidationVisitor]

    /// Where variable usages found now are recorded.
    private enum UsageTarget {
        case none
        case operation(Int)
        case fragment(Int)
    }
    private var usageTarget = UsageTarget.none
    private var usages: [VariableUsage] = []
    /// Fragment spreads walked so far (an operation that adds none has none).
    private var spreadsWalked = 0

    init(context: ValidationContext, visitors: [any ValidationVisitor]) {
        self.context = context
        func subscribed(_ event: ValidationEvents) -> [any ValidationVisitor] {
            visitors.filter { $0.events.contains(event) }
        }
        documentVisitors = subscribed(.document)
        leaveDocumentVisitors = subscribed(.leaveDocument)
        operationVisitors = subscribed(.operation)
        leaveOperationVisitors = subscribed(.leaveOperation)
        fragmentDefinitionVisitors = subscribed(.fragmentDefinition)
        variableDefinitionVisitors = subscribed(.variableDefinition)
        selectionSetVisitors = subscribed(.selectionSet)
        fieldVisitors = subscribed(.field)
        leaveFieldVisitors = subscribed(.leaveField)
        fragmentSpreadVisitors = subscribed(.fragmentSpread)
        inlineFragmentVisitors = subscribed(.inlineFragment)
        directivesVisitors = subscribed(.directives)
        directiveVisitors = subscribed(.directive)
        leaveDirectiveVisitors = subscribed(.leaveDirective)
        argumentVisitors = subscribed(.argument)
        valueVisitors = subscribed(.value)
        leaveValueVisitors = subscribed(.leaveValue)
        objectFieldVisitors = subscribed(.objectField)
        namedTypeVisitors = subscribed(.namedType)
    }

    // MARK: - Document

    func walk(_ document: Document) {
        for v in documentVisitors { v.enterDocument(document) }
        var nesting = FragmentNesting(context: context)
        var operationIndex = 0
        var fragmentIndex = 0
        for definition in document.definitions {
            guard !context.isAborted else { break }
            switch definition {
            case .operation(let operation):
                if nesting.exceedsLimit(operation: operation) {
                    reportFragmentCycles()
                    nesting.abort(at: operation.loc, named: operation.name?.value)
                    break
                }
                walkOperation(operation, index: operationIndex)
                operationIndex += 1
            case .fragment(let fragment):
                if nesting.exceedsLimit(fragmentAt: fragmentIndex) {
                    reportFragmentCycles()
                    nesting.abort(at: fragment.loc, named: fragment.name.value)
                    break
                }
                walkFragmentDefinition(fragment, index: fragmentIndex)
                fragmentIndex += 1
            default:
                walkTypeSystemDefinition(definition)
            }
        }
        context.runDeferredChecks()
        guard !context.isAborted else { return }
        for v in leaveDocumentVisitors { v.leaveDocument(document) }
    }

    /// Before the nesting guard stops validation: NoFragmentCycles (when it is one of the
    /// rules) reports the cycles of every fragment, the errors that explain most documents
    /// nesting without end, which it would otherwise report only at the definitions walked.
    private func reportFragmentCycles() {
        for visitor in fragmentDefinitionVisitors where visitor is NoFragmentCyclesRule {
            for fragment in context.fragmentDefinitions { visitor.enterFragmentDefinition(fragment) }
        }
    }

    // MARK: - Executable definitions

    private func walkOperation(_ operation: OperationDefinition, index: Int) {
        context.currentOperationIndex = index
        context.typeInfo.enterOperation(operation)
        for v in operationVisitors { v.enterOperation(operation) }
        usageTarget = .operation(index)
        usages = []
        let spreadsBefore = spreadsWalked
        for definition in operation.variableDefinitions { walkVariableDefinition(definition) }
        let location: DirectiveLocation =
            switch operation.operation {
            case .query: .query
            case .mutation: .mutation
            case .subscription: .subscription
            }
        walkDirectives(operation.directives, location: location)
        walkSelectionSet(operation.selectionSet, owner: .operation)
        if spreadsWalked == spreadsBefore && !context.isAborted { context.noteOperationHasNoSpreads(index) }
        context.operationUsages[index] = usages
        usageTarget = .none
        for v in leaveOperationVisitors { v.leaveOperation(operation) }
        context.typeInfo.leaveOperationOrFragment()
    }

    private func walkFragmentDefinition(_ fragment: FragmentDefinition, index: Int) {
        context.typeInfo.enterFragment(typeCondition: fragment.typeCondition)
        for v in fragmentDefinitionVisitors { v.enterFragmentDefinition(fragment) }
        usageTarget = .fragment(index)
        usages = []
        walkNamedType(fragment.typeCondition, inTypeSystem: false)
        walkDirectives(fragment.directives, location: .fragmentDefinition)
        walkSelectionSet(fragment.selectionSet, owner: .fragmentDefinition)
        context.fragmentUsages[index] = usages
        usageTarget = .none
        context.typeInfo.leaveOperationOrFragment()
    }

    private func walkVariableDefinition(_ definition: VariableDefinition) {
        context.typeInfo.enterVariableDefinition(definition)
        for v in variableDefinitionVisitors { v.enterVariableDefinition(definition) }
        walkType(definition.type, inTypeSystem: false)
        if let value = definition.defaultValue {
            // A default value is constant: variables in it are no usages (graphql-js skips
            // variable definitions when collecting usages).
            let target = usageTarget
            usageTarget = .none
            walkValue(value)
            usageTarget = target
        }
        walkDirectives(definition.directives, location: .variableDefinition)
        context.typeInfo.leaveVariableDefinition()
    }

    private func walkSelectionSet(_ selectionSet: SelectionSet, owner: SelectionSetOwner) {
        context.typeInfo.enterSelectionSet()
        for v in selectionSetVisitors { v.enterSelectionSet(selectionSet, owner: owner) }
        for selection in selectionSet.selections {
            guard !context.isAborted else { break }
            switch selection {
            case .field(let field): walkField(field)
            case .fragmentSpread(let spread):
                spreadsWalked += 1
                for v in fragmentSpreadVisitors { v.enterFragmentSpread(spread) }
                walkDirectives(spread.directives, location: .fragmentSpread)
            case .inlineFragment(let fragment): walkInlineFragment(fragment)
            }
        }
        context.typeInfo.leaveSelectionSet()
    }

    private func walkField(_ field: Field) {
        context.typeInfo.enterField(field)
        for v in fieldVisitors { v.enterField(field) }
        for argument in field.arguments { walkArgument(argument) }
        walkDirectives(field.directives, location: .field)
        if let selectionSet = field.selectionSet { walkSelectionSet(selectionSet, owner: .field) }
        for v in leaveFieldVisitors { v.leaveField(field) }
        context.typeInfo.leaveField()
    }

    private func walkInlineFragment(_ fragment: InlineFragment) {
        context.typeInfo.enterFragment(typeCondition: fragment.typeCondition)
        for v in inlineFragmentVisitors { v.enterInlineFragment(fragment) }
        if let condition = fragment.typeCondition { walkNamedType(condition, inTypeSystem: false) }
        walkDirectives(fragment.directives, location: .inlineFragment)
        walkSelectionSet(fragment.selectionSet, owner: .inlineFragment)
        context.typeInfo.leaveOperationOrFragment()
    }

    // MARK: - Directives, arguments, values, types

    /// Visits a directive list; `scope` is given for type system nodes only (executable
    /// nodes hand their directives to UniqueDirectivesPerLocation through their own event).
    private func walkDirectives(_ directives: [Directive], location: DirectiveLocation?, scope: DirectiveScope? = nil) {
        guard !directives.isEmpty else { return }
        if let scope { for v in directivesVisitors { v.enterDirectives(directives, scope: scope) } }
        for directive in directives {
            context.typeInfo.enterDirective(directive)
            for v in directiveVisitors { v.enterDirective(directive, location: location) }
            for argument in directive.arguments { walkArgument(argument) }
            for v in leaveDirectiveVisitors { v.leaveDirective(directive) }
            context.typeInfo.leaveDirective()
        }
    }

    private func walkArgument(_ argument: Argument) {
        context.typeInfo.enterArgument(argument)
        for v in argumentVisitors { v.enterArgument(argument) }
        walkValue(argument.value)
        context.typeInfo.leaveArgument()
    }

    private func walkValue(_ value: Value) {
        switch value {
        case .list(let list):
            context.typeInfo.enterListValue()
            for v in valueVisitors { v.enterValue(value) }
            for item in list.values { walkValue(item) }
            for v in leaveValueVisitors { v.leaveValue(value) }
            context.typeInfo.leaveInputPosition()
        case .object(let object):
            for v in valueVisitors { v.enterValue(value) }
            for field in object.fields {
                context.typeInfo.enterObjectField(field)
                for v in objectFieldVisitors { v.enterObjectField(field) }
                walkValue(field.value)
                context.typeInfo.leaveInputPosition()
            }
            for v in leaveValueVisitors { v.leaveValue(value) }
        case .variable(let variable):
            switch usageTarget {
            case .none: break
            case .operation, .fragment:
                let info = context.typeInfo
                usages.append(
                    VariableUsage(
                        variable: variable, type: info.inputType, hasDefaultValue: info.hasDefaultValue,
                        parentType: info.parentInputType))
            }
            for v in valueVisitors { v.enterValue(value) }
        default:
            for v in valueVisitors { v.enterValue(value) }
        }
    }

    private func walkType(_ type: TypeNode, inTypeSystem: Bool) {
        switch type {
        case .named(let named): walkNamedType(named, inTypeSystem: inTypeSystem)
        case .list(let list): walkType(list.type, inTypeSystem: inTypeSystem)
        case .nonNull(let nonNull): walkType(nonNull.type, inTypeSystem: inTypeSystem)
        }
    }

    private func walkNamedType(_ type: NamedType, inTypeSystem: Bool) {
        for v in namedTypeVisitors { v.enterNamedType(type, inTypeSystem: inTypeSystem) }
    }

    // MARK: - Type system definitions (only ExecutableDefinitions, KnownTypeNames and the
    // directive and value rules have something to say about them)

    private func walkTypeSystemDefinition(_ definition: Definition) {
        switch definition {
        case .operation, .fragment:
            break
        case .schema(let d):
            walkDirectives(d.directives, location: .schema, scope: .schema)
            for t in d.operationTypes { walkNamedType(t.type, inTypeSystem: true) }
        case .schemaExtension(let d):
            walkDirectives(d.directives, location: .schema, scope: .schema)
            for t in d.operationTypes { walkNamedType(t.type, inTypeSystem: true) }
        case .scalarType(let d):
            walkDirectives(d.directives, location: .scalar, scope: .type(d.name.value))
        case .scalarTypeExtension(let d):
            walkDirectives(d.directives, location: .scalar, scope: .type(d.name.value))
        case .objectType(let d):
            walkComposite(d.name, d.interfaces, d.directives, d.fields, location: .object)
        case .objectTypeExtension(let d):
            walkComposite(d.name, d.interfaces, d.directives, d.fields, location: .object)
        case .interfaceType(let d):
            walkComposite(d.name, d.interfaces, d.directives, d.fields, location: .interface)
        case .interfaceTypeExtension(let d):
            walkComposite(d.name, d.interfaces, d.directives, d.fields, location: .interface)
        case .unionType(let d):
            walkDirectives(d.directives, location: .union, scope: .type(d.name.value))
            for t in d.types { walkNamedType(t, inTypeSystem: true) }
        case .unionTypeExtension(let d):
            walkDirectives(d.directives, location: .union, scope: .type(d.name.value))
            for t in d.types { walkNamedType(t, inTypeSystem: true) }
        case .enumType(let d):
            walkDirectives(d.directives, location: .enumType, scope: .type(d.name.value))
            for v in d.values { walkDirectives(v.directives, location: .enumValue, scope: .node) }
        case .enumTypeExtension(let d):
            walkDirectives(d.directives, location: .enumType, scope: .type(d.name.value))
            for v in d.values { walkDirectives(v.directives, location: .enumValue, scope: .node) }
        case .inputObjectType(let d):
            walkDirectives(d.directives, location: .inputObject, scope: .type(d.name.value))
            for f in d.fields { walkInputValueDefinition(f, location: .inputFieldDefinition) }
        case .inputObjectTypeExtension(let d):
            walkDirectives(d.directives, location: .inputObject, scope: .type(d.name.value))
            // graphql-js names this location from the parent's kind, which is only
            // INPUT_FIELD_DEFINITION for a definition, not an extension.
            for f in d.fields { walkInputValueDefinition(f, location: .argumentDefinition) }
        case .directive(let d):
            for a in d.arguments { walkInputValueDefinition(a, location: .argumentDefinition) }
        }
    }

    private func walkComposite(
        _ name: Name, _ interfaces: [NamedType], _ directives: [Directive], _ fields: [FieldDefinition],
        location: DirectiveLocation
    ) {
        for i in interfaces { walkNamedType(i, inTypeSystem: true) }
        walkDirectives(directives, location: location, scope: .type(name.value))
        for field in fields {
            for a in field.arguments { walkInputValueDefinition(a, location: .argumentDefinition) }
            walkType(field.type, inTypeSystem: true)
            walkDirectives(field.directives, location: .fieldDefinition, scope: .node)
        }
    }

    private func walkInputValueDefinition(_ definition: InputValueDefinition, location: DirectiveLocation) {
        walkType(definition.type, inTypeSystem: true)
        if let value = definition.defaultValue { walkValue(value) }
        walkDirectives(definition.directives, location: location, scope: .node)
    }
}
