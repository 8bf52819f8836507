// The schema printer: a schema back to SDL in graphql-js 16 `printSchema` form, the form
// graphql-core 3.2.14 `print_schema` gives byte for byte (our conformance oracle).

/// Prints `schema` as SDL, exactly as graphql-js 16 `printSchema` does.
///
/// Layout: the `schema { … }` block only when a root type is not named Query / Mutation /
/// Subscription or the schema has a description; then the directives that are not built in;
/// then the types in `typeNames` order, leaving out the built-in scalars and the
/// introspection types; blocks separated by one blank line, no trailing newline. Descriptions
/// print as block strings when graphql-js's `isPrintableAsBlockString` allows, else as
/// quoted strings. Default values print as the literal of the coerced value (graphql-js
/// `astFromValue`), so `Float = 1.0` prints `Float = 1` and an invalid default is left out.
///
/// - Returns: the SDL text, e.g. `"type Query {\n  ping: String\n}"`.
public func printSchema(_ schema: Schema) -> String {
    var printer = SchemaPrinter(schema: schema)
    return printer.printSchema()
}

/// Prints one schema; holds the default-value coercer, which memoises input field defaults.
private struct SchemaPrinter {
    let schema: Schema
    var coercer: DefaultValueCoercer

    init(schema: Schema) {
        self.schema = schema
        self.coercer = DefaultValueCoercer(schema: schema)
    }

    mutating func printSchema() -> String {
        var blocks: [String] = []
        if let definition = printSchemaDefinition() { blocks.append(definition) }
        for directive in schema.directives where !directive.isSpecified {
            blocks.append(printDirective(directive))
        }
        for name in schema.typeNames {
            guard let type = schema.types[name], !type.isStandardType else { continue }
            blocks.append(printType(type))
        }
        return blocks.joined(separator: "\n\n")
    }

    private func printSchemaDefinition() -> String? {
        let commonNames =
            (schema.queryType ?? "Query") == "Query" && (schema.mutationType ?? "Mutation") == "Mutation"
            && (schema.subscriptionType ?? "Subscription") == "Subscription"
        if schema.description == nil && commonNames { return nil }
        var operationTypes: [String] = []
        if let query = schema.queryType { operationTypes.append("  query: \(query)") }
        if let mutation = schema.mutationType { operationTypes.append("  mutation: \(mutation)") }
        if let subscription = schema.subscriptionType { operationTypes.append("  subscription: \(subscription)") }
        return printDescription(schema.description) + "schema {\n" + operationTypes.joined(separator: "\n") + "\n}"
    }

    // MARK: - Types

    private mutating func printType(_ type: GraphQLNamedType) -> String {
        switch type {
        case .scalar(let t):
            return printDescription(t.description) + "scalar \(t.name)" + printSpecifiedByURL(t.specifiedByURL)
        case .object(let t):
            return printDescription(t.description) + "type \(t.name)" + printImplementedInterfaces(t.interfaces)
                + printFields(t.fields)
        case .interface(let t):
            return printDescription(t.description) + "interface \(t.name)" + printImplementedInterfaces(t.interfaces)
                + printFields(t.fields)
        case .union(let t):
            let members = t.types.isEmpty ? "" : " = " + t.types.joined(separator: " | ")
            return printDescription(t.description) + "union \(t.name)" + members
        case .enumType(let t):
            let values = t.values.enumerated().map { i, value in
                printDescription(value.description, indentation: "  ", firstInBlock: i == 0) + "  \(value.name)"
                    + printDeprecated(value.deprecationReason)
            }
            return printDescription(t.description) + "enum \(t.name)" + printBlock(values)
        case .inputObject(let t):
            var fields: [String] = []
            for (i, field) in t.fields.enumerated() {
                fields.append(
                    printDescription(field.description, indentation: "  ", firstInBlock: i == 0) + "  "
                        + printInputValue(field))
            }
            return printDescription(t.description) + "input \(t.name)" + (t.isOneOf ? " @oneOf" : "")
                + printBlock(fields)
        }
    }

    private func printImplementedInterfaces(_ interfaces: [String]) -> String {
        interfaces.isEmpty ? "" : " implements " + interfaces.joined(separator: " & ")
    }

    private mutating func printFields(_ fields: [FieldDefinitionModel]) -> String {
        var lines: [String] = []
        for (i, field) in fields.enumerated() {
            lines.append(
                printDescription(field.description, indentation: "  ", firstInBlock: i == 0) + "  \(field.name)"
                    + printArguments(field.arguments, indentation: "  ") + ": \(field.type)"
                    + printDeprecated(field.deprecationReason))
        }
        return printBlock(lines)
    }

    private func printBlock(_ items: [String]) -> String {
        items.isEmpty ? "" : " {\n" + items.joined(separator: "\n") + "\n}"
    }

    /// Arguments on one line when none has a description, else one per line, indented.
    private mutating func printArguments(_ arguments: [InputValueModel], indentation: String = "") -> String {
        if arguments.isEmpty { return "" }
        if arguments.allSatisfy({ ($0.description ?? "").isEmpty }) {
            var printed: [String] = []
            for argument in arguments { printed.append(printInputValue(argument)) }
            return "(" + printed.joined(separator: ", ") + ")"
        }
        var lines: [String] = []
        for (i, argument) in arguments.enumerated() {
            lines.append(
                printDescription(argument.description, indentation: "  " + indentation, firstInBlock: i == 0) + "  "
                    + indentation + printInputValue(argument))
        }
        return "(\n" + lines.joined(separator: "\n") + "\n" + indentation + ")"
    }

    private mutating func printInputValue(_ value: InputValueModel) -> String {
        var declaration = "\(value.name): \(value.type)"
        if let literal = value.defaultValue, let coerced = coercer.coerce(literal, to: value.type),
            let printed = coerced.literal(for: value.type, in: schema)
        {
            declaration += " = " + print(printed)
        }
        return declaration + printDeprecated(value.deprecationReason)
    }

    private mutating func printDirective(_ directive: DirectiveModel) -> String {
        printDescription(directive.description) + "directive @\(directive.name)"
            + printArguments(directive.arguments) + printDeprecated(directive.deprecationReason)
            + (directive.isRepeatable ? " repeatable" : "") + " on "
            + directive.locations.map(\.rawValue).joined(separator: " | ")
    }

    private func printDeprecated(_ reason: String?) -> String {
        guard let reason else { return "" }
        if reason == DirectiveModel.defaultDeprecationReason { return " @deprecated" }
        return " @deprecated(reason: \(printString(reason)))"
    }

    private func printSpecifiedByURL(_ url: String?) -> String {
        guard let url else { return "" }
        return " @specifiedBy(url: \(printString(url)))"
    }

    /// A description line(s) before a definition; inside a block, every one but the first is
    /// preceded by a blank line.
    private func printDescription(_ description: String?, indentation: String = "", firstInBlock: Bool = true)
        -> String
    {
        guard let description else { return "" }
        let literal =
            isPrintableAsBlockString(description) ? printBlockString(description) : printString(description)
        let prefix = !indentation.isEmpty && !firstInBlock ? "\n" + indentation : indentation
        return prefix + literal.replacingNewlines(with: "\n" + indentation) + "\n"
    }
}

extension String {
    /// Every `\n` followed by `replacement`'s text (`\n` plus an indentation).
    fileprivate func replacingNewlines(with replacement: String) -> String {
        guard contains("\n") else { return self }
        return split(separator: "\n", omittingEmptySubsequences: false).joined(separator: replacement)
    }
}

/// Whether `value` survives a round trip through a block string (graphql-js
/// `isPrintableAsBlockString`): no control characters but tab and line feed, no carriage
/// return, no leading or trailing blank line, and no indentation common to all lines after
/// the first (BlockStringValue() would strip it).
func isPrintableAsBlockString(_ value: String) -> Bool {
    if value.isEmpty { return true }
    var isEmptyLine = true
    var hasIndent = false
    var hasCommonIndent = true
    var seenNonEmptyLine = false
    for scalar in value.unicodeScalars {
        switch scalar.value {
        case 0x0A:
            if isEmptyLine && !seenNonEmptyLine { return false }
            seenNonEmptyLine = true
            isEmptyLine = true
            hasIndent = false
        case 0x09, 0x20:
            hasIndent = hasIndent || isEmptyLine
        case 0x00...0x0F:
            return false
        default:
            hasCommonIndent = hasCommonIndent && hasIndent
            isEmptyLine = false
        }
    }
    if isEmptyLine { return false }
    if hasCommonIndent && seenNonEmptyLine { return false }
    return true
}
