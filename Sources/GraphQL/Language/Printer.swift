// The AST printer: one canonical text per document, laid out exactly as graphql-js 16
// `print()` (graphql-core 3.2.14 `print_ast`, our conformance oracle) lays it out.
//
// Layout rules, in the oracle's terms:
// - blocks (`{ … }` of selection sets, fields, values, operation types) put one item per
//   line, indented by two spaces; indentation applies to every line break inside the
//   block, block strings included;
// - a field's arguments go on one line unless `alias: name(args)` would be longer than
//   80 scalars (MAX_LINE_LENGTH), then one argument per line, indented;
// - arguments of field and directive definitions go one per line as soon as any of them
//   spans several lines (a description, a multi-line block string);
// - variable definitions go one per line, not indented, as soon as any spans several lines;
// - directives never wrap; definitions are separated by one blank line.
//
// The printer writes into one buffer that knows the current indentation; where a layout
// choice depends on the printed width of some items (arguments, variable definitions),
// those items are printed alone first, measured, and then copied in.

/// Prints a document in canonical form (graphql-js 16 `print()`): definitions separated
/// by a blank line, no trailing newline.
///
/// - Parameter document: any document, executable or type system (spec §2.2, §3).
/// - Returns: the printed text; parsing it gives back an equivalent document.
public func print(_ document: Document) -> String {
    var printer = ASTPrinter()
    // Canonical form is about as long as the parsed text; reserving it up front avoids the
    // doubling growth that would otherwise peak near twice the output.
    if document.loc.end > 0 { printer.reserveCapacity(document.loc.end + document.loc.end / 8) }
    printer.printDocument(document)
    return printer.output
}

/// Prints one definition (operation, fragment, or type system definition or extension).
public func print(_ definition: Definition) -> String {
    var printer = ASTPrinter()
    printer.printDefinition(definition)
    return printer.output
}

/// Prints a value literal (spec §2.9), e.g. `{a: [1, 2], b: "x"}` or `$v`; lists and
/// input objects stay on one line, strings use `printString`/`printBlockString`.
public func print(_ value: Value) -> String {
    var printer = ASTPrinter()
    printer.printValue(value)
    return printer.output
}

/// Prints a type reference (spec §2.11), e.g. `[Track!]!`.
public func print(_ type: TypeNode) -> String {
    var printer = ASTPrinter()
    printer.printType(type)
    return printer.output
}

/// Prints a selection set as a block: `{`, one selection per indented line, `}`.
/// An empty selection set prints as the empty string.
public func print(_ selectionSet: SelectionSet) -> String {
    var printer = ASTPrinter()
    printer.printSelectionSet(selectionSet)
    return printer.output
}

/// Prints one directive, e.g. `@deprecated(reason: "use title")`.
public func print(_ directive: Directive) -> String {
    var printer = ASTPrinter()
    printer.printDirective(directive)
    return printer.output
}

/// Prints a directive list separated by single spaces, e.g. `@a @b(x: 1)`; empty for none.
public func print(_ directives: [Directive]) -> String {
    var printer = ASTPrinter()
    printer.printDirectives(directives)
    return printer.output
}

/// The printer's output buffer plus the node printers that fill it.
struct ASTPrinter {
    /// graphql-js's MAX_LINE_LENGTH: the width beyond which a field's arguments wrap.
    static let maxLineLength = 80

    private(set) var output = ""
    private var indentation = ""

    mutating func reserveCapacity(_ bytes: Int) {
        output.reserveCapacity(bytes)
    }

    // MARK: - Output primitives

    /// Appends text that holds no line break.
    private mutating func write(_ text: String) {
        output += text
    }

    /// Appends text that may hold line breaks (block strings, pre-printed items): each
    /// break is followed by the current indentation.
    private mutating func writeText(_ text: String) {
        if indentation.isEmpty || !text.utf8.contains(0x0A) {
            output += text
            return
        }
        let utf8 = text.utf8
        var lineStart = utf8.startIndex
        var i = utf8.startIndex
        while i != utf8.endIndex {
            if utf8[i] == 0x0A {
                output += text[lineStart..<i]
                newline()
                lineStart = utf8.index(after: i)
            }
            i = utf8.index(after: i)
        }
        output += text[lineStart...]
    }

    /// A line break followed by the current indentation.
    private mutating func newline() {
        output += "\n"
        output += indentation
    }

    private mutating func indent() { indentation += "  " }
    private mutating func dedent() { indentation.removeLast(2) }

    /// Prints `items` as a block: `{`, each item on its own indented line, `}`; nothing for
    /// no items.
    private mutating func block<T>(_ items: [T], _ printItem: (inout ASTPrinter, T) -> Void) {
        guard !items.isEmpty else { return }
        write("{")
        indent()
        for item in items {
            newline()
            printItem(&self, item)
        }
        dedent()
        newline()
        write("}")
    }

    /// Prints `items` alone, each on a fresh printer: their text at indentation zero.
    private func printedAlone<T>(_ items: [T], _ printItem: (inout ASTPrinter, T) -> Void) -> [String] {
        items.map { item in
            var printer = ASTPrinter()
            printItem(&printer, item)
            return printer.output
        }
    }

    /// `(a, b)` when no item spans several lines, else `(`, one item per line, `)`, indented
    /// when `indented` (argument definitions) or not (variable definitions).
    private mutating func writeParenthesized(_ items: [String], indented: Bool) {
        guard !items.isEmpty else { return }
        if items.contains(where: { $0.utf8.contains(0x0A) }) {
            write("(")
            if indented { indent() }
            for item in items {
                newline()
                writeText(item)
            }
            if indented { dedent() }
            newline()
            write(")")
        } else {
            write("(")
            writeText(items.joined(separator: ", "))
            write(")")
        }
    }

    /// A description (a string literal) and the line break after it.
    private mutating func printDescription(_ description: StringValue?) {
        guard let description else { return }
        printStringValue(description)
        newline()
    }

    // MARK: - Documents and executable definitions (§2.2–§2.8)

    mutating func printDocument(_ document: Document) {
        var previous: Definition?
        for definition in document.definitions {
            if previous != nil {
                write("\n")
                newline()
            }
            // graphql-js prints `enum E query { c }` as `enum E\n\n{ c }`, which parses back
            // as `enum E { c }`: after a definition whose body is optional and omitted, the
            // shorthand would become that body, so the operation keeps its `query` keyword.
            if case .operation(let d) = definition, let previous, Self.takesFollowingBody(previous) {
                printOperationDefinition(d, shorthandAllowed: false)
            } else {
                printDefinition(definition)
            }
            previous = definition
        }
    }

    /// Whether `definition` printed ends where its optional `{ … }` body would start, so that a
    /// following `{` would be read as that body (§3.6, §3.7, §3.9, §3.10 and their extensions).
    private static func takesFollowingBody(_ definition: Definition) -> Bool {
        switch definition {
        case .objectType(let d): d.fields.isEmpty
        case .interfaceType(let d): d.fields.isEmpty
        case .enumType(let d): d.values.isEmpty
        case .inputObjectType(let d): d.fields.isEmpty
        case .objectTypeExtension(let d): d.fields.isEmpty
        case .interfaceTypeExtension(let d): d.fields.isEmpty
        case .enumTypeExtension(let d): d.values.isEmpty
        case .inputObjectTypeExtension(let d): d.fields.isEmpty
        default: false
        }
    }

    mutating func printDefinition(_ definition: Definition) {
        switch definition {
        case .operation(let d): printOperationDefinition(d)
        case .fragment(let d): printFragmentDefinition(d)
        case .schema(let d): printSchemaDefinition(d)
        case .scalarType(let d): printScalarTypeDefinition(d)
        case .objectType(let d): printObjectTypeDefinition(d)
        case .interfaceType(let d): printInterfaceTypeDefinition(d)
        case .unionType(let d): printUnionTypeDefinition(d)
        case .enumType(let d): printEnumTypeDefinition(d)
        case .inputObjectType(let d): printInputObjectTypeDefinition(d)
        case .directive(let d): printDirectiveDefinition(d)
        case .schemaExtension(let d): printSchemaExtension(d)
        case .scalarTypeExtension(let d): printScalarTypeExtension(d)
        case .objectTypeExtension(let d): printObjectTypeExtension(d)
        case .interfaceTypeExtension(let d): printInterfaceTypeExtension(d)
        case .unionTypeExtension(let d): printUnionTypeExtension(d)
        case .enumTypeExtension(let d): printEnumTypeExtension(d)
        case .inputObjectTypeExtension(let d): printInputObjectTypeExtension(d)
        }
    }

    /// `query Name($v: T) @dir { … }`, or the shorthand `{ … }` for an anonymous query
    /// without description, variables or directives when `shorthandAllowed`.
    mutating func printOperationDefinition(_ node: OperationDefinition, shorthandAllowed: Bool = true) {
        let isShorthand =
            shorthandAllowed && node.operation == .query && node.description == nil && node.name == nil
            && node.variableDefinitions.isEmpty && node.directives.isEmpty
        if !isShorthand {
            printDescription(node.description)
            write(node.operation.rawValue)
            if node.name != nil || !node.variableDefinitions.isEmpty {
                write(" ")
                if let name = node.name { write(name.value) }
                writeParenthesized(
                    printedAlone(node.variableDefinitions) { $0.printVariableDefinition($1) }, indented: false)
            }
            if !node.directives.isEmpty {
                write(" ")
                printDirectives(node.directives)
            }
            write(" ")
        }
        printSelectionSet(node.selectionSet)
    }

    /// `"description" $name: Type = default @dir` (the description on its own line).
    mutating func printVariableDefinition(_ node: VariableDefinition) {
        printDescription(node.description)
        printVariable(node.variable)
        write(": ")
        printType(node.type)
        if let defaultValue = node.defaultValue {
            write(" = ")
            printValue(defaultValue)
        }
        printTrailingDirectives(node.directives)
    }

    mutating func printSelectionSet(_ node: SelectionSet) {
        block(node.selections) { $0.printSelection($1) }
    }

    mutating func printSelection(_ selection: Selection) {
        switch selection {
        case .field(let f): printField(f)
        case .fragmentSpread(let s): printFragmentSpread(s)
        case .inlineFragment(let f): printInlineFragment(f)
        }
    }

    /// `alias: name(args) @dir { … }`; the arguments wrap one per line past 80 scalars.
    mutating func printField(_ node: Field) {
        var prefix = node.name.value
        if let alias = node.alias, !alias.value.isEmpty { prefix = alias.value + ": " + prefix }
        write(prefix)
        if !node.arguments.isEmpty {
            let arguments = printedAlone(node.arguments) { $0.printArgument($1) }
            // Width of `prefix(a, b)`: prefix, the items, the ", " separators, the parentheses.
            var width = prefix.unicodeScalars.count + 2 + 2 * (arguments.count - 1)
            for argument in arguments { width += argument.unicodeScalars.count }
            if width > ASTPrinter.maxLineLength {
                write("(")
                indent()
                for argument in arguments {
                    newline()
                    writeText(argument)
                }
                dedent()
                newline()
                write(")")
            } else {
                write("(")
                writeText(arguments.joined(separator: ", "))
                write(")")
            }
        }
        printTrailingDirectives(node.directives)
        if let selectionSet = node.selectionSet, !selectionSet.selections.isEmpty {
            write(" ")
            printSelectionSet(selectionSet)
        }
    }

    mutating func printArgument(_ node: Argument) {
        write(node.name.value)
        write(": ")
        printValue(node.value)
    }

    /// `...Name @dir`.
    mutating func printFragmentSpread(_ node: FragmentSpread) {
        write("...")
        write(node.name.value)
        printTrailingDirectives(node.directives)
    }

    /// `... on Type @dir { … }`.
    mutating func printInlineFragment(_ node: InlineFragment) {
        write("...")
        if let typeCondition = node.typeCondition {
            write(" on ")
            write(typeCondition.name.value)
        }
        printTrailingDirectives(node.directives)
        if !node.selectionSet.selections.isEmpty { write(" ") }
        printSelectionSet(node.selectionSet)
    }

    /// `fragment Name on Type @dir { … }`.
    mutating func printFragmentDefinition(_ node: FragmentDefinition) {
        printDescription(node.description)
        write("fragment ")
        write(node.name.value)
        write(" on ")
        write(node.typeCondition.name.value)
        write(" ")
        if !node.directives.isEmpty {
            printDirectives(node.directives)
            write(" ")
        }
        printSelectionSet(node.selectionSet)
    }

    // MARK: - Values, directives, types (§2.9–§2.12)

    mutating func printValue(_ value: Value) {
        switch value {
        case .variable(let v): printVariable(v)
        case .int(let v): write(v.value)
        case .float(let v): write(v.value)
        case .string(let v): printStringValue(v)
        case .boolean(let v): write(v.value ? "true" : "false")
        case .null: write("null")
        case .enumValue(let v): write(v.value)
        case .list(let v):
            write("[")
            for (i, item) in v.values.enumerated() {
                if i > 0 { write(", ") }
                printValue(item)
            }
            write("]")
        case .object(let v):
            write("{")
            for (i, field) in v.fields.enumerated() {
                if i > 0 { write(", ") }
                write(field.name.value)
                write(": ")
                printValue(field.value)
            }
            write("}")
        }
    }

    mutating func printVariable(_ node: Variable) {
        write("$")
        write(node.name.value)
    }

    mutating func printStringValue(_ node: StringValue) {
        if node.block {
            writeText(printBlockString(node.value))
        } else {
            write(printString(node.value))
        }
    }

    /// `@name(args)`; directive arguments never wrap.
    mutating func printDirective(_ node: Directive) {
        write("@")
        write(node.name.value)
        if !node.arguments.isEmpty {
            write("(")
            for (i, argument) in node.arguments.enumerated() {
                if i > 0 { write(", ") }
                printArgument(argument)
            }
            write(")")
        }
    }

    mutating func printDirectives(_ directives: [Directive]) {
        for (i, directive) in directives.enumerated() {
            if i > 0 { write(" ") }
            printDirective(directive)
        }
    }

    /// A space and the directives, or nothing when there are none.
    private mutating func printTrailingDirectives(_ directives: [Directive]) {
        guard !directives.isEmpty else { return }
        write(" ")
        printDirectives(directives)
    }

    mutating func printType(_ type: TypeNode) {
        switch type {
        case .named(let t): write(t.name.value)
        case .list(let t):
            write("[")
            printType(t.type)
            write("]")
        case .nonNull(let t):
            printType(t.type)
            write("!")
        }
    }

    // MARK: - Type system definitions (§3)

    /// `schema @dir { query: Query … }`.
    mutating func printSchemaDefinition(_ node: SchemaDefinition) {
        printDescription(node.description)
        write("schema")
        printTrailingDirectives(node.directives)
        printOperationTypes(node.operationTypes)
    }

    /// ` { query: Query … }`, or nothing for no operation types.
    private mutating func printOperationTypes(_ operationTypes: [OperationTypeDefinition]) {
        guard !operationTypes.isEmpty else { return }
        write(" ")
        block(operationTypes) { printer, node in
            printer.write(node.operation.rawValue)
            printer.write(": ")
            printer.write(node.type.name.value)
        }
    }

    mutating func printScalarTypeDefinition(_ node: ScalarTypeDefinition) {
        printDescription(node.description)
        write("scalar ")
        write(node.name.value)
        printTrailingDirectives(node.directives)
    }

    mutating func printObjectTypeDefinition(_ node: ObjectTypeDefinition) {
        printDescription(node.description)
        printObjectLike("type", node.name, node.interfaces, node.directives, node.fields)
    }

    mutating func printInterfaceTypeDefinition(_ node: InterfaceTypeDefinition) {
        printDescription(node.description)
        printObjectLike("interface", node.name, node.interfaces, node.directives, node.fields)
    }

    /// `keyword Name implements A & B @dir { fields }`, shared by types, interfaces and
    /// their extensions.
    private mutating func printObjectLike(
        _ keyword: String, _ name: Name, _ interfaces: [NamedType], _ directives: [Directive],
        _ fields: [FieldDefinition]
    ) {
        write(keyword)
        write(" ")
        write(name.value)
        if !interfaces.isEmpty {
            write(" implements ")
            for (i, interface) in interfaces.enumerated() {
                if i > 0 { write(" & ") }
                write(interface.name.value)
            }
        }
        printTrailingDirectives(directives)
        if !fields.isEmpty {
            write(" ")
            block(fields) { $0.printFieldDefinition($1) }
        }
    }

    /// `"description" name(args): Type @dir`; the arguments go one per line, indented, when
    /// any of them spans several lines.
    mutating func printFieldDefinition(_ node: FieldDefinition) {
        printDescription(node.description)
        write(node.name.value)
        writeParenthesized(printedAlone(node.arguments) { $0.printInputValueDefinition($1) }, indented: true)
        write(": ")
        printType(node.type)
        printTrailingDirectives(node.directives)
    }

    /// `"description" name: Type = default @dir`.
    mutating func printInputValueDefinition(_ node: InputValueDefinition) {
        printDescription(node.description)
        write(node.name.value)
        write(": ")
        printType(node.type)
        if let defaultValue = node.defaultValue {
            write(" = ")
            printValue(defaultValue)
        }
        printTrailingDirectives(node.directives)
    }

    mutating func printUnionTypeDefinition(_ node: UnionTypeDefinition) {
        printDescription(node.description)
        printUnionLike("union", node.name, node.directives, node.types)
    }

    /// `keyword Name @dir = A | B`.
    private mutating func printUnionLike(
        _ keyword: String, _ name: Name, _ directives: [Directive], _ types: [NamedType]
    ) {
        write(keyword)
        write(" ")
        write(name.value)
        printTrailingDirectives(directives)
        if !types.isEmpty {
            write(" = ")
            for (i, type) in types.enumerated() {
                if i > 0 { write(" | ") }
                write(type.name.value)
            }
        }
    }

    mutating func printEnumTypeDefinition(_ node: EnumTypeDefinition) {
        printDescription(node.description)
        printEnumLike("enum", node.name, node.directives, node.values)
    }

    /// `keyword Name @dir { VALUE @dir … }`.
    private mutating func printEnumLike(
        _ keyword: String, _ name: Name, _ directives: [Directive], _ values: [EnumValueDefinition]
    ) {
        write(keyword)
        write(" ")
        write(name.value)
        printTrailingDirectives(directives)
        if !values.isEmpty {
            write(" ")
            block(values) { printer, value in
                printer.printDescription(value.description)
                printer.write(value.name.value)
                printer.printTrailingDirectives(value.directives)
            }
        }
    }

    mutating func printInputObjectTypeDefinition(_ node: InputObjectTypeDefinition) {
        printDescription(node.description)
        printInputObjectLike("input", node.name, node.directives, node.fields)
    }

    /// `keyword Name @dir { field: Type … }`.
    private mutating func printInputObjectLike(
        _ keyword: String, _ name: Name, _ directives: [Directive], _ fields: [InputValueDefinition]
    ) {
        write(keyword)
        write(" ")
        write(name.value)
        printTrailingDirectives(directives)
        if !fields.isEmpty {
            write(" ")
            block(fields) { $0.printInputValueDefinition($1) }
        }
    }

    /// `directive @name(args) repeatable on A | B`.
    mutating func printDirectiveDefinition(_ node: DirectiveDefinition) {
        printDescription(node.description)
        write("directive @")
        write(node.name.value)
        writeParenthesized(printedAlone(node.arguments) { $0.printInputValueDefinition($1) }, indented: true)
        if node.repeatable { write(" repeatable") }
        write(" on ")
        for (i, location) in node.locations.enumerated() {
            if i > 0 { write(" | ") }
            write(location.value)
        }
    }

    // MARK: - Type system extensions (§3.3.2, §3.5.1–§3.10.1)

    mutating func printSchemaExtension(_ node: SchemaExtension) {
        write("extend schema")
        printTrailingDirectives(node.directives)
        printOperationTypes(node.operationTypes)
    }

    mutating func printScalarTypeExtension(_ node: ScalarTypeExtension) {
        write("extend scalar ")
        write(node.name.value)
        printTrailingDirectives(node.directives)
    }

    mutating func printObjectTypeExtension(_ node: ObjectTypeExtension) {
        printObjectLike("extend type", node.name, node.interfaces, node.directives, node.fields)
    }

    mutating func printInterfaceTypeExtension(_ node: InterfaceTypeExtension) {
        printObjectLike("extend interface", node.name, node.interfaces, node.directives, node.fields)
    }

    mutating func printUnionTypeExtension(_ node: UnionTypeExtension) {
        printUnionLike("extend union", node.name, node.directives, node.types)
    }

    mutating func printEnumTypeExtension(_ node: EnumTypeExtension) {
        printEnumLike("extend enum", node.name, node.directives, node.values)
    }

    mutating func printInputObjectTypeExtension(_ node: InputObjectTypeExtension) {
        printInputObjectLike("extend input", node.name, node.directives, node.fields)
    }
}
