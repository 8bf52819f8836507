// An indented text rendering of an AST for the parser tests: one node per line, its kind,
// byte range and scalar fields, children indented below. Tests compare whole renderings,
// so every node, value and location of a parse is checked.
@testable import GraphQL

/// Renders `document` (see the file comment).
func dump(_ document: Document) -> String {
    var out = ASTDumper()
    out.document(document)
    return out.lines.joined(separator: "\n")
}

/// Parses `text` and renders the document; a syntax error renders as its message.
func dumpParse(_ text: String) -> String {
    do {
        return dump(try parse(Source(text)))
    } catch {
        return "error: \(error)"
    }
}

private struct ASTDumper {
    var lines: [String] = []
    var indent = 0

    mutating func line(_ text: String, _ loc: Location) {
        lines.append(String(repeating: "  ", count: indent) + text + " @\(loc.start)..\(loc.end)")
    }

    mutating func nested(_ body: (inout ASTDumper) -> Void) {
        indent += 1
        body(&self)
        indent -= 1
    }

    mutating func document(_ document: Document) {
        line("Document", document.loc)
        nested { out in
            for definition in document.definitions { out.definition(definition) }
        }
    }

    mutating func name(_ label: String, _ name: Name?) {
        guard let name else { return }
        line("\(label) \(name.value)", name.loc)
    }

    mutating func description(_ value: StringValue?) {
        guard let value else { return }
        line("description \(value.block ? "block" : "string") \(value.value.debugDescription)", value.loc)
    }

    mutating func definition(_ definition: Definition) {
        switch definition {
        case .operation(let d):
            line("OperationDefinition \(d.operation.rawValue)", d.loc)
            nested { out in
                out.description(d.description)
                out.name("name", d.name)
                for v in d.variableDefinitions { out.variableDefinition(v) }
                out.directives(d.directives)
                out.selectionSet(d.selectionSet)
            }
        case .fragment(let d):
            line("FragmentDefinition", d.loc)
            nested { out in
                out.description(d.description)
                out.name("name", d.name)
                out.name("on", d.typeCondition.name)
                out.directives(d.directives)
                out.selectionSet(d.selectionSet)
            }
        case .schema(let d):
            line("SchemaDefinition", d.loc)
            nested { out in
                out.description(d.description)
                out.directives(d.directives)
                for o in d.operationTypes { out.operationType(o) }
            }
        case .scalarType(let d):
            line("ScalarTypeDefinition", d.loc)
            nested { out in
                out.description(d.description)
                out.name("name", d.name)
                out.directives(d.directives)
            }
        case .objectType(let d):
            line("ObjectTypeDefinition", d.loc)
            nested { out in
                out.description(d.description)
                out.name("name", d.name)
                for i in d.interfaces { out.name("implements", i.name) }
                out.directives(d.directives)
                for f in d.fields { out.fieldDefinition(f) }
            }
        case .interfaceType(let d):
            line("InterfaceTypeDefinition", d.loc)
            nested { out in
                out.description(d.description)
                out.name("name", d.name)
                for i in d.interfaces { out.name("implements", i.name) }
                out.directives(d.directives)
                for f in d.fields { out.fieldDefinition(f) }
            }
        case .unionType(let d):
            line("UnionTypeDefinition", d.loc)
            nested { out in
                out.description(d.description)
                out.name("name", d.name)
                out.directives(d.directives)
                for t in d.types { out.name("member", t.name) }
            }
        case .enumType(let d):
            line("EnumTypeDefinition", d.loc)
            nested { out in
                out.description(d.description)
                out.name("name", d.name)
                out.directives(d.directives)
                for v in d.values { out.enumValueDefinition(v) }
            }
        case .inputObjectType(let d):
            line("InputObjectTypeDefinition", d.loc)
            nested { out in
                out.description(d.description)
                out.name("name", d.name)
                out.directives(d.directives)
                for f in d.fields { out.inputValueDefinition(f) }
            }
        case .directive(let d):
            line("DirectiveDefinition\(d.repeatable ? " repeatable" : "")", d.loc)
            nested { out in
                out.description(d.description)
                out.name("name", d.name)
                for a in d.arguments { out.inputValueDefinition(a) }
                for l in d.locations { out.name("location", l) }
            }
        case .schemaExtension(let d):
            line("SchemaExtension", d.loc)
            nested { out in
                out.directives(d.directives)
                for o in d.operationTypes { out.operationType(o) }
            }
        case .scalarTypeExtension(let d):
            line("ScalarTypeExtension", d.loc)
            nested { out in
                out.name("name", d.name)
                out.directives(d.directives)
            }
        case .objectTypeExtension(let d):
            line("ObjectTypeExtension", d.loc)
            nested { out in
                out.name("name", d.name)
                for i in d.interfaces { out.name("implements", i.name) }
                out.directives(d.directives)
                for f in d.fields { out.fieldDefinition(f) }
            }
        case .interfaceTypeExtension(let d):
            line("InterfaceTypeExtension", d.loc)
            nested { out in
                out.name("name", d.name)
                for i in d.interfaces { out.name("implements", i.name) }
                out.directives(d.directives)
                for f in d.fields { out.fieldDefinition(f) }
            }
        case .unionTypeExtension(let d):
            line("UnionTypeExtension", d.loc)
            nested { out in
                out.name("name", d.name)
                out.directives(d.directives)
                for t in d.types { out.name("member", t.name) }
            }
        case .enumTypeExtension(let d):
            line("EnumTypeExtension", d.loc)
            nested { out in
                out.name("name", d.name)
                out.directives(d.directives)
                for v in d.values { out.enumValueDefinition(v) }
            }
        case .inputObjectTypeExtension(let d):
            line("InputObjectTypeExtension", d.loc)
            nested { out in
                out.name("name", d.name)
                out.directives(d.directives)
                for f in d.fields { out.inputValueDefinition(f) }
            }
        }
    }

    mutating func operationType(_ o: OperationTypeDefinition) {
        line("OperationTypeDefinition \(o.operation.rawValue): \(o.type.name.value)", o.loc)
    }

    mutating func fieldDefinition(_ f: FieldDefinition) {
        line("FieldDefinition", f.loc)
        nested { out in
            out.description(f.description)
            out.name("name", f.name)
            for a in f.arguments { out.inputValueDefinition(a) }
            out.type(f.type)
            out.directives(f.directives)
        }
    }

    mutating func inputValueDefinition(_ v: InputValueDefinition) {
        line("InputValueDefinition", v.loc)
        nested { out in
            out.description(v.description)
            out.name("name", v.name)
            out.type(v.type)
            if let d = v.defaultValue { out.value(d, label: "default ") }
            out.directives(v.directives)
        }
    }

    mutating func enumValueDefinition(_ v: EnumValueDefinition) {
        line("EnumValueDefinition", v.loc)
        nested { out in
            out.description(v.description)
            out.name("name", v.name)
            out.directives(v.directives)
        }
    }

    mutating func variableDefinition(_ v: VariableDefinition) {
        line("VariableDefinition", v.loc)
        nested { out in
            out.description(v.description)
            out.line("Variable $\(v.variable.name.value)", v.variable.loc)
            out.type(v.type)
            if let d = v.defaultValue { out.value(d, label: "default ") }
            out.directives(v.directives)
        }
    }

    mutating func type(_ t: TypeNode) {
        switch t {
        case .named(let n): line("NamedType \(n.name.value)", n.loc)
        case .list(let l):
            line("ListType", l.loc)
            nested { out in out.type(l.type) }
        case .nonNull(let n):
            line("NonNullType", n.loc)
            nested { out in out.type(n.type) }
        }
    }

    mutating func directives(_ directives: [Directive]) {
        for d in directives {
            line("Directive @\(d.name.value)", d.loc)
            nested { out in
                for a in d.arguments { out.argument(a) }
            }
        }
    }

    mutating func argument(_ a: Argument) {
        line("Argument \(a.name.value)", a.loc)
        nested { out in out.value(a.value) }
    }

    mutating func selectionSet(_ s: SelectionSet) {
        line("SelectionSet", s.loc)
        nested { out in
            for selection in s.selections {
                switch selection {
                case .field(let f):
                    out.line("Field \(f.alias.map { "\($0.value): " } ?? "")\(f.name.value)", f.loc)
                    out.nested { out in
                        out.name("alias", f.alias)
                        out.name("name", f.name)
                        for a in f.arguments { out.argument(a) }
                        out.directives(f.directives)
                        if let s = f.selectionSet { out.selectionSet(s) }
                    }
                case .fragmentSpread(let f):
                    out.line("FragmentSpread ...\(f.name.value)", f.loc)
                    out.nested { out in out.directives(f.directives) }
                case .inlineFragment(let f):
                    out.line("InlineFragment\(f.typeCondition.map { " on \($0.name.value)" } ?? "")", f.loc)
                    out.nested { out in
                        out.directives(f.directives)
                        out.selectionSet(f.selectionSet)
                    }
                }
            }
        }
    }

    mutating func value(_ v: Value, label: String = "") {
        switch v {
        case .variable(let x): line("\(label)Variable $\(x.name.value)", x.loc)
        case .int(let x): line("\(label)IntValue \(x.value)", x.loc)
        case .float(let x): line("\(label)FloatValue \(x.value)", x.loc)
        case .string(let x): line("\(label)StringValue\(x.block ? " block" : "") \(x.value.debugDescription)", x.loc)
        case .boolean(let x): line("\(label)BooleanValue \(x.value)", x.loc)
        case .null(let x): line("\(label)NullValue", x.loc)
        case .enumValue(let x): line("\(label)EnumValue \(x.value)", x.loc)
        case .list(let x):
            line("\(label)ListValue", x.loc)
            nested { out in
                for item in x.values { out.value(item) }
            }
        case .object(let x):
            line("\(label)ObjectValue", x.loc)
            nested { out in
                for field in x.fields {
                    out.line("ObjectField \(field.name.value)", field.loc)
                    out.nested { out in out.value(field.value) }
                }
            }
        }
    }
}
