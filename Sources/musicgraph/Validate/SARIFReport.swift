import Foundation

/// SARIF 2.1.0 (OASIS Static Analysis Results Interchange Format) for code-scanning tools
/// such as GitHub code scanning: one run whose tool is `musicgraph validate`, a rule entry
/// per rule that reported something (its title and the spec section it checks), and one
/// result per finding with its physical location (`region.startLine`/`startColumn`;
/// `columnKind` says columns count Unicode code points, as GraphQL locations do) and the
/// other positions as `relatedLocations`. Relative paths are relative to `%SRCROOT%`.
extension ValidationReport {
    func sarif() -> String {
        var ruleIndex: [String: Int] = [:]
        var rules: [String] = []
        for diagnostic in diagnostics where ruleIndex[diagnostic.rule] == nil {
            ruleIndex[diagnostic.rule] = rules.count
            rules.append(diagnostic.rule)
        }
        let ruleEntries = rules.map { rule -> String in
            let about = ruleDocumentation[rule]
            var out = "{\"id\":\(jsonQuoted(rule)),\"name\":\(jsonQuoted(rule))"
            out += ",\"shortDescription\":{\"text\":\(jsonQuoted(about?.title ?? rule))}"
            if let url = about?.url ?? nil { out += ",\"helpUri\":\(jsonQuoted(url))" }
            let level = rule == "NoDeprecatedCustom" ? "warning" : "error"
            return out + ",\"defaultConfiguration\":{\"level\":\"\(level)\"}}"
        }
        let results = diagnostics.map { diagnostic -> String in
            var out = "{\"ruleId\":\(jsonQuoted(diagnostic.rule)),\"ruleIndex\":\(ruleIndex[diagnostic.rule] ?? 0)"
            out +=
                ",\"level\":\"\(diagnostic.severity.rawValue)\",\"message\":{\"text\":\(jsonQuoted(diagnostic.message))}"
            let primary = diagnostic.primary
            out += ",\"locations\":[{\"physicalLocation\":" + physicalLocation(diagnostic.file, primary) + "}]"
            let related = diagnostic.positions.dropFirst()
            if !related.isEmpty {
                out += ",\"relatedLocations\":["
                out += related.enumerated().map {
                    "{\"id\":\($0.offset + 1),\"physicalLocation\":" + physicalLocation($0.element.file, $0.element)
                        + "}"
                }.joined(separator: ",")
                out += "]"
            }
            return out + "}"
        }
        var out = "{\"$schema\":\"https://json.schemastore.org/sarif-2.1.0.json\",\"version\":\"2.1.0\",\"runs\":[{"
        out += "\"tool\":{\"driver\":{\"name\":\"musicgraph validate\","
        out += "\"informationUri\":\"https://spec.graphql.org/September2025/#sec-Validation\","
        out += "\"rules\":[" + ruleEntries.joined(separator: ",") + "]}},"
        out += "\"columnKind\":\"unicodeCodePoints\","
        out += "\"results\":[" + results.joined(separator: ",") + "]}]}\n"
        return out
    }
}

/// A SARIF `physicalLocation`: the artifact (a relative URI against `%SRCROOT%`, or a
/// `file://` URI for absolute paths) and, when known, the region's start.
private func physicalLocation(_ file: String, _ position: Diagnostic.Position?) -> String {
    var out = "{\"artifactLocation\":"
    if file.hasPrefix("/") {
        out += "{\"uri\":\(jsonQuoted("file://" + uriPath(file)))}"
    } else {
        var relative = file
        while relative.hasPrefix("./") { relative.removeFirst(2) }
        out += "{\"uri\":\(jsonQuoted(uriPath(relative))),\"uriBaseId\":\"%SRCROOT%\"}"
    }
    if let position {
        out += ",\"region\":{\"startLine\":\(position.line),\"startColumn\":\(position.column)}"
    }
    return out + "}"
}

/// `path` percent-encoded as a URI path (RFC 3986: unreserved characters and `/` kept).
private func uriPath(_ path: String) -> String {
    var allowed = CharacterSet.alphanumerics.intersection(
        CharacterSet(charactersIn: Unicode.Scalar(0)..<Unicode.Scalar(128)))
    allowed.insert(charactersIn: "-._~/")
    return path.addingPercentEncoding(withAllowedCharacters: allowed) ?? path
}

/// Title and specification section of each rule `validate` can report, for SARIF's rule
/// metadata (graphql-js names; the sections of spec §5 "Validation").
private let ruleDocumentation: [String: (title: String, url: String?)] = {
    let spec = "https://spec.graphql.org/September2025/#sec-"
    let entries: [(String, String, String)] = [
        ("ExecutableDefinitions", "Executable definitions", "Executable-Definitions"),
        ("UniqueOperationNames", "Unique operation names", "Operation-Name-Uniqueness"),
        ("LoneAnonymousOperation", "Lone anonymous operation", "Lone-Anonymous-Operation"),
        ("SingleFieldSubscriptions", "Single field subscriptions", "Single-Root-Field"),
        ("KnownTypeNames", "Known type names", "Fragment-Spread-Type-Existence"),
        ("FragmentsOnCompositeTypes", "Fragments on composite types", "Fragments-On-Object-Interface-Or-Union-Types"),
        ("VariablesAreInputTypes", "Variables are input types", "Variables-Are-Input-Types"),
        ("ScalarLeafs", "Scalar leafs", "Leaf-Field-Selections"),
        ("FieldsOnCorrectType", "Fields on correct type", "Field-Selections"),
        ("UniqueFragmentNames", "Unique fragment names", "Fragment-Name-Uniqueness"),
        ("KnownFragmentNames", "Known fragment names", "Fragment-Spread-Target-Defined"),
        ("NoUnusedFragments", "No unused fragments", "Fragments-Must-Be-Used"),
        ("PossibleFragmentSpreads", "Possible fragment spreads", "Fragment-Spread-Is-Possible"),
        ("NoFragmentCycles", "No fragment cycles", "Fragment-Spreads-Must-Not-Form-Cycles"),
        ("UniqueVariableNames", "Unique variable names", "Variable-Uniqueness"),
        ("NoUndefinedVariables", "No undefined variables", "All-Variable-Uses-Defined"),
        ("NoUnusedVariables", "No unused variables", "All-Variables-Used"),
        ("KnownDirectives", "Known directives", "Directives-Are-Defined"),
        ("UniqueDirectivesPerLocation", "Unique directives per location", "Directives-Are-Unique-per-Location"),
        ("KnownArgumentNames", "Known argument names", "Argument-Names"),
        ("UniqueArgumentNames", "Unique argument names", "Argument-Uniqueness"),
        ("ValuesOfCorrectType", "Values of correct type", "Values-of-Correct-Type"),
        ("ProvidedRequiredArguments", "Provided required arguments", "Required-Arguments"),
        ("VariablesInAllowedPosition", "Variables in allowed position", "All-Variable-Usages-Are-Allowed"),
        ("OverlappingFieldsCanBeMerged", "Overlapping fields can be merged", "Field-Selection-Merging"),
        ("UniqueInputFieldNames", "Unique input field names", "Input-Object-Field-Uniqueness"),
        ("MaxIntrospectionDepth", "Max introspection depth", "Introspection"),
        ("NoDeprecatedCustom", "No deprecated fields, arguments or enum values", "-deprecated"),
        (Diagnostic.Rule.syntaxError, "The document does not parse", "Language"),
        (Diagnostic.Rule.invalidUTF8, "The document is not UTF-8 text", "Source-Text"),
    ]
    var table: [String: (title: String, url: String?)] = [:]
    for (rule, title, section) in entries { table[rule] = (title, spec + section) }
    table[Diagnostic.Rule.unreadableFile] = ("The file cannot be read", nil)
    table[Diagnostic.Rule.noDocuments] = ("The directory holds no documents", nil)
    return table
}()
