// How a validation rule plugs into the single document traversal of `validate`.
//
// graphql-js runs every rule as its own visitor, in parallel over one walk
// (`visitInParallel`). Here each rule is a `ValidationVisitor` object created per
// validation; it declares the events it wants, and the walker calls only those, in rule
// order, so a rule that watches fields costs nothing at values and vice versa.

/// A validation rule (spec §5): a name and a factory for the visitor that checks one
/// document. `name` is the graphql-js rule name without `Rule` (e.g. `"ScalarLeafs"`);
/// it becomes `extensions.rule` on the errors the rule reports.
public struct ValidationRule: Sendable {
    public let name: String
    let makeVisitor: @Sendable (ValidationContext) -> any ValidationVisitor

    /// - Parameters:
    ///   - name: the graphql-js rule name without the `Rule` suffix.
    ///   - makeVisitor: builds a fresh visitor for one validation run.
    public init(name: String, makeVisitor: @escaping @Sendable (ValidationContext) -> any ValidationVisitor) {
        self.name = name
        self.makeVisitor = makeVisitor
    }
}

/// The traversal events a visitor subscribes to (graphql-js visitor keys).
public struct ValidationEvents: OptionSet, Sendable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    public static let document = ValidationEvents(rawValue: 1 << 0)
    public static let leaveDocument = ValidationEvents(rawValue: 1 << 1)
    public static let operation = ValidationEvents(rawValue: 1 << 2)
    public static let leaveOperation = ValidationEvents(rawValue: 1 << 3)
    public static let fragmentDefinition = ValidationEvents(rawValue: 1 << 4)
    public static let variableDefinition = ValidationEvents(rawValue: 1 << 5)
    public static let selectionSet = ValidationEvents(rawValue: 1 << 6)
    public static let field = ValidationEvents(rawValue: 1 << 7)
    public static let leaveField = ValidationEvents(rawValue: 1 << 8)
    public static let fragmentSpread = ValidationEvents(rawValue: 1 << 9)
    public static let inlineFragment = ValidationEvents(rawValue: 1 << 10)
    public static let directives = ValidationEvents(rawValue: 1 << 11)
    public static let directive = ValidationEvents(rawValue: 1 << 12)
    public static let leaveDirective = ValidationEvents(rawValue: 1 << 13)
    public static let argument = ValidationEvents(rawValue: 1 << 14)
    public static let value = ValidationEvents(rawValue: 1 << 15)
    public static let leaveValue = ValidationEvents(rawValue: 1 << 16)
    public static let objectField = ValidationEvents(rawValue: 1 << 17)
    public static let namedType = ValidationEvents(rawValue: 1 << 18)
}

/// Who owns a selection set: OverlappingFieldsCanBeMerged compares an inline fragment's
/// fields as part of its enclosing selection set, not on their own.
public enum SelectionSetOwner: Sendable {
    case operation, field, inlineFragment, fragmentDefinition
}

/// Where a directive list sits, for UniqueDirectivesPerLocation: type system definitions
/// and their extensions share one scope per type name (and one for `schema`).
public enum DirectiveScope: Sendable, Hashable {
    /// An executable location or a type system member (field, argument, enum value): a
    /// scope of its own.
    case node
    /// `schema` definitions and extensions.
    case schema
    /// A named type's definition and its extensions.
    case type(String)
}

/// A rule's visitor. Every method has an empty default; the walker calls only the
/// methods whose event is in `events`. Nodes are passed as they are in the AST;
/// type information for the current position is in `context.typeInfo`.
public protocol ValidationVisitor: AnyObject {
    /// The events this visitor handles.
    var events: ValidationEvents { get }

    func enterDocument(_ document: Document)
    func leaveDocument(_ document: Document)
    func enterOperation(_ operation: OperationDefinition)
    func leaveOperation(_ operation: OperationDefinition)
    func enterFragmentDefinition(_ fragment: FragmentDefinition)
    func enterVariableDefinition(_ definition: VariableDefinition)
    func enterSelectionSet(_ selectionSet: SelectionSet, owner: SelectionSetOwner)
    func enterField(_ field: Field)
    func leaveField(_ field: Field)
    func enterFragmentSpread(_ spread: FragmentSpread)
    func enterInlineFragment(_ fragment: InlineFragment)
    /// A node's whole directive list, before its directives are visited one by one.
    func enterDirectives(_ directives: [Directive], scope: DirectiveScope)
    /// `location` is nil where graphql-js finds no location (never for parsed documents).
    func enterDirective(_ directive: Directive, location: DirectiveLocation?)
    func leaveDirective(_ directive: Directive)
    /// A field or directive argument; `context.typeInfo.inDirective` tells which.
    func enterArgument(_ argument: Argument)
    /// Every value node, variables and leaves included.
    func enterValue(_ value: Value)
    /// Only list and object values (the ones with children).
    func leaveValue(_ value: Value)
    func enterObjectField(_ field: ObjectField)
    /// A named type reference; `inTypeSystem` when it sits in a type system definition or
    /// extension rather than in an executable definition.
    func enterNamedType(_ type: NamedType, inTypeSystem: Bool)
}

extension ValidationVisitor {
    public func enterDocument(_ document: Document) {}
    public func leaveDocument(_ document: Document) {}
    public func enterOperation(_ operation: OperationDefinition) {}
    public func leaveOperation(_ operation: OperationDefinition) {}
    public func enterFragmentDefinition(_ fragment: FragmentDefinition) {}
    public func enterVariableDefinition(_ definition: VariableDefinition) {}
    public func enterSelectionSet(_ selectionSet: SelectionSet, owner: SelectionSetOwner) {}
    public func enterField(_ field: Field) {}
    public func leaveField(_ field: Field) {}
    public func enterFragmentSpread(_ spread: FragmentSpread) {}
    public func enterInlineFragment(_ fragment: InlineFragment) {}
    public func enterDirectives(_ directives: [Directive], scope: DirectiveScope) {}
    public func enterDirective(_ directive: Directive, location: DirectiveLocation?) {}
    public func leaveDirective(_ directive: Directive) {}
    public func enterArgument(_ argument: Argument) {}
    public func enterValue(_ value: Value) {}
    public func leaveValue(_ value: Value) {}
    public func enterObjectField(_ field: ObjectField) {}
    public func enterNamedType(_ type: NamedType, inTypeSystem: Bool) {}
}
