// Type information along the validation walk (graphql-js `TypeInfo`).

/// The schema types at the walker's current position: the enclosing composite type, the
/// current field and its output type, the expected input type of the current value, and
/// the directive or argument being visited. Unknown names give nil, never an error: the
/// rules that care (KnownTypeNames, FieldsOnCorrectType, …) report those.
///
/// Stacks mirror graphql-js `TypeInfo`: a selection set pushes its parent type; a field,
/// operation or fragment pushes an output type; an argument, list item, object field or
/// variable definition pushes an input type (and arguments, list items and object
/// fields push whether that position has a default value).
public struct TypeInfo: Sendable {
    public let schema: Schema
    private var parentTypeStack: [String?] = []
    private var typeStack: [TypeReference?] = []
    /// Shared entries of the schema's lookup table: pushing one is a retain, not a copy.
    private var fieldDefStack: [FieldEntry?] = []
    private var inputTypeStack: [TypeReference?] = []
    private var defaultValueStack: [Bool] = []
    /// The directive whose arguments are being visited, if it is known to the schema.
    public private(set) var directive: DirectiveModel?
    /// True between entering and leaving any directive, known or not.
    public private(set) var inDirective = false
    /// The definition of the argument being visited, if known.
    public private(set) var argument: InputValueModel?

    public init(schema: Schema) {
        self.schema = schema
    }

    /// The current output type (of the field, operation root or fragment condition).
    public var type: TypeReference? { typeStack.last ?? nil }
    /// The composite type whose selection set is being visited, by name.
    public var parentType: String? { parentTypeStack.last ?? nil }
    /// The definition of the field being visited (meta-fields included).
    public var fieldDefinition: FieldDefinitionModel? { (fieldDefStack.last ?? nil)?.definition }
    /// Whether the field being visited has a definition (without copying it out).
    var hasFieldDefinition: Bool { (fieldDefStack.last ?? nil) != nil }
    /// The lookup entry of the field being visited: its definition without a copy.
    var fieldEntry: FieldEntry? { fieldDefStack.last ?? nil }
    /// The input type expected at the current value.
    public var inputType: TypeReference? { inputTypeStack.last ?? nil }
    /// The input type of the enclosing list or input object value, as written (wrappers kept).
    public var parentInputType: TypeReference? {
        inputTypeStack.count > 1 ? inputTypeStack[inputTypeStack.count - 2] : nil
    }
    /// Whether the current argument or input field position declares a default value.
    public var hasDefaultValue: Bool { defaultValueStack.last ?? false }

    // MARK: - Walker hooks

    mutating func enterSelectionSet() {
        if let named = type?.namedType, schema.kind(of: named)?.isCompositeType ?? false {
            parentTypeStack.append(named)
        } else {
            parentTypeStack.append(nil)
        }
    }

    mutating func leaveSelectionSet() { parentTypeStack.removeLast() }

    mutating func enterField(_ field: Field) {
        if let parent = parentType, let entry = schema.lookup.field(field.name.value, on: parent) {
            fieldDefStack.append(entry)
            typeStack.append(entry.outputType)
        } else {
            fieldDefStack.append(nil)
            typeStack.append(nil)
        }
    }

    mutating func leaveField() {
        fieldDefStack.removeLast()
        typeStack.removeLast()
    }

    mutating func enterOperation(_ operation: OperationDefinition) {
        if let root = schema.rootTypeName(for: operation.operation), schema.kind(of: root) == .object {
            typeStack.append(.named(root))
        } else {
            typeStack.append(nil)
        }
    }

    /// Inline fragments and fragment definitions: the type condition, or the current type.
    mutating func enterFragment(typeCondition: NamedType?) {
        let output: TypeReference?
        if let condition = typeCondition {
            output = schema.kind(of: condition.name.value) != nil ? .named(condition.name.value) : nil
        } else {
            output = type.map { .named($0.namedType) }
        }
        typeStack.append(output.flatMap { schema.isOutputType($0) ? $0 : nil })
    }

    mutating func leaveOperationOrFragment() { typeStack.removeLast() }

    mutating func enterVariableDefinition(_ definition: VariableDefinition) {
        let t = schema.typeReference(from: definition.type)
        inputTypeStack.append(t.flatMap { schema.isInputType($0) ? $0 : nil })
    }

    mutating func leaveVariableDefinition() { inputTypeStack.removeLast() }

    mutating func enterDirective(_ directive: Directive) {
        self.directive = schema.directive(directive.name.value)
        inDirective = true
    }

    mutating func leaveDirective() {
        directive = nil
        inDirective = false
    }

    mutating func enterArgument(_ argument: Argument) {
        let def: InputValueModel?
        if inDirective {
            def = directive?.argument(argument.name.value)
        } else {
            def = (fieldDefStack.last ?? nil)?.definition.argument(argument.name.value)
        }
        self.argument = def
        defaultValueStack.append(def?.defaultValue != nil)
        inputTypeStack.append(def.flatMap { schema.isInputType($0.type) ? $0.type : nil })
    }

    mutating func leaveArgument() {
        argument = nil
        defaultValueStack.removeLast()
        inputTypeStack.removeLast()
    }

    mutating func enterListValue() {
        let itemType: TypeReference?
        switch inputType?.nullable {
        case .list(let item): itemType = item
        case let other: itemType = other
        }
        defaultValueStack.append(false)
        inputTypeStack.append(itemType.flatMap { schema.isInputType($0) ? $0 : nil })
    }

    mutating func enterObjectField(_ field: ObjectField) {
        var fieldDef: InputValueModel?
        if let named = inputType?.namedType, case .inputObject(let object) = schema.types[named] {
            fieldDef = object.field(field.name.value)
        }
        defaultValueStack.append(fieldDef?.defaultValue != nil)
        inputTypeStack.append(fieldDef.flatMap { schema.isInputType($0.type) ? $0.type : nil })
    }

    /// Leaves a list value or an object field.
    mutating func leaveInputPosition() {
        defaultValueStack.removeLast()
        inputTypeStack.removeLast()
    }
}

extension Schema {
    /// graphql-js `typeFromAST`: the type a type node names, or nil when its named type is
    /// not in the schema.
    public func typeReference(from node: TypeNode) -> TypeReference? {
        switch node {
        case .named(let n): lookup.kinds[n.name.value] != nil ? .named(n.name.value) : nil
        case .list(let l): typeReference(from: l.type).map { .list($0) }
        case .nonNull(let n): typeReference(from: n.type).map { .nonNull($0) }
        }
    }

    /// §3.4.1 IsInputType: scalar, enum or input object inside any wrappers.
    public func isInputType(_ type: TypeReference) -> Bool {
        lookup.kinds[type.namedType]?.isInputType ?? false
    }

    /// §3.4.1 IsOutputType: anything but an input object inside any wrappers.
    public func isOutputType(_ type: TypeReference) -> Bool {
        lookup.kinds[type.namedType]?.isOutputType ?? false
    }

    /// The kind of the named type `name`, nil when the schema has no such type.
    func kind(of name: String) -> TypeKind? { lookup.kinds[name] }

    /// graphql-js `schema.isSubType(abstractType, maybeSubType)`: a union member, or an
    /// object or interface type that implements the interface.
    public func isSubType(_ abstractType: String, _ maybeSubType: String) -> Bool {
        lookup.subTypes[abstractType]?.contains(maybeSubType) ?? false
    }

    /// graphql-js `doTypesOverlap`: whether some object type could be of both composite types.
    public func doTypesOverlap(_ a: String, _ b: String) -> Bool {
        if a == b { return true }
        let aAbstract = lookup.kinds[a]?.isAbstractType ?? false
        let bAbstract = lookup.kinds[b]?.isAbstractType ?? false
        if aAbstract {
            if bAbstract { return possibleTypes(of: a).contains { isSubType(b, $0) } }
            return isSubType(a, b)
        }
        if bAbstract { return isSubType(b, a) }
        return false
    }

    /// graphql-js `isTypeSubTypeOf`: whether a value of `maybeSubType` is always valid where
    /// `superType` is expected (non-null may go where nullable is expected; lists match
    /// item-wise; an object or interface may go where one of its abstract types is expected).
    public func isTypeSubTypeOf(_ maybeSubType: TypeReference, _ superType: TypeReference) -> Bool {
        if maybeSubType == superType { return true }
        if case .nonNull(let superInner) = superType {
            if case .nonNull(let subInner) = maybeSubType { return isTypeSubTypeOf(subInner, superInner) }
            return false
        }
        if case .nonNull(let subInner) = maybeSubType { return isTypeSubTypeOf(subInner, superType) }
        if case .list(let superItem) = superType {
            if case .list(let subItem) = maybeSubType { return isTypeSubTypeOf(subItem, superItem) }
            return false
        }
        if case .list = maybeSubType { return false }
        guard case .named(let superName) = superType, case .named(let subName) = maybeSubType else { return false }
        guard lookup.kinds[superName]?.isAbstractType ?? false else { return false }
        switch lookup.kinds[subName] {
        case .object, .interface: return isSubType(superName, subName)
        default: return false
        }
    }
}
