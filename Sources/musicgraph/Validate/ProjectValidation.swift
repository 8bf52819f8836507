import GraphQL

/// Validates many documents against one schema as one project, the way graphql-config
/// `documents` and graphql-inspector `validate` treat a repository's operations: every file
/// is its own document (what a client sends), but a fragment defined in one file may be
/// spread in another, so each file is validated together with the fragments it reaches
/// from other files, and a fragment counts as used when any file spreads it.
///
/// Across files, operation and fragment names must be unique (an error naming both
/// places). Deprecated usages (`NoDeprecatedCustom`) are warnings, or errors when
/// `failOnDeprecated`. Positions are always in the file the text comes from: an error inside
/// a fragment from `b.graphql` found while validating `a.graphql` is reported in
/// `b.graphql`, once however many files spread it.
struct ProjectValidation {
    let schema: Schema
    /// The rules every document is checked with (`specifiedRules`, or `incrementalDeliveryRules`).
    let rules: [ValidationRule]
    let parseOptions: ParseOptions
    /// Checked on each file that passes the rules (`OperationLimits.none`: nothing).
    let limits: OperationLimits
    /// Per document, as `validate(schema:document:source:maxErrors:)`.
    let maxErrors: Int
    let failOnDeprecated: Bool

    /// One document that parsed.
    private struct Parsed {
        var name: String
        var source: Source
        var document: Document
        /// Fragment definitions by name (the first of a name within the file).
        var fragments: [String: FragmentDefinition]
        /// Names of fragments spread anywhere in the file.
        var spreads: Set<String>
    }

    /// A fragment copied from another file behind a document's own text.
    private struct Segment {
        /// Line in the combined text where the copy starts (it starts at column 1).
        var combinedLine: Int
        var file: String
        /// Where the fragment starts in its own file.
        var origin: SourceLocation
    }

    func run(_ inputs: DocumentFiles) -> ValidationReport {
        var diagnostics = OrderedDiagnostics()
        for problem in inputs.problems { diagnostics.append(problem) }

        var parsed: [Parsed] = []
        var operationCount = 0
        for file in inputs.files {
            if let problem = Self.utf8Problem(file) {
                diagnostics.append(problem)
                continue
            }
            let source = Source(bytes: file.bytes, name: file.name)
            let document: Document
            do throws(GraphQLError) {
                document = try parse(source, options: parseOptions)
            } catch {
                diagnostics.append(
                    Diagnostic(
                        severity: .error, rule: Diagnostic.Rule.syntaxError, message: error.message, file: file.name,
                        positions: error.locations.map { .init(file: file.name, line: $0.line, column: $0.column) }))
                continue
            }
            var fragments: [String: FragmentDefinition] = [:]
            var spreads: Set<String> = []
            for definition in document.definitions {
                switch definition {
                case .operation(let operation):
                    operationCount += 1
                    collectSpreads(operation.selectionSet, into: &spreads)
                case .fragment(let fragment):
                    if fragments[fragment.name.value] == nil { fragments[fragment.name.value] = fragment }
                    collectSpreads(fragment.selectionSet, into: &spreads)
                default: break
                }
            }
            parsed.append(
                Parsed(
                    name: file.name, source: source, document: document, fragments: fragments,
                    spreads: spreads))
        }

        // The first file (in input order) defining a fragment is where other files take it from.
        var fragmentOwner: [String: Int] = [:]
        for (position, file) in parsed.enumerated() {
            for name in file.fragments.keys where fragmentOwner[name] == nil { fragmentOwner[name] = position }
        }
        // Fragments some operation of the project reaches, through spreads in any file.
        var used: Set<String> = []
        var queue: [String] = []
        for file in parsed {
            for case .operation(let operation) in file.document.definitions {
                var names: Set<String> = []
                collectSpreads(operation.selectionSet, into: &names)
                queue.append(contentsOf: names)
            }
        }
        while let name = queue.popLast() {
            guard used.insert(name).inserted else { continue }
            for file in parsed {
                guard let fragment = file.fragments[name] else { continue }
                var names: Set<String> = []
                collectSpreads(fragment.selectionSet, into: &names)
                queue.append(contentsOf: names.subtracting(used))
            }
        }

        for fileIndex in parsed.indices {
            for diagnostic in validate(file: fileIndex, of: parsed, fragmentOwner: fragmentOwner, used: used) {
                diagnostics.append(diagnostic)
            }
        }
        for diagnostic in crossFileDuplicates(parsed) { diagnostics.append(diagnostic) }

        let order = Dictionary(inputs.files.enumerated().map { ($0.element.name, $0.offset) }) { first, _ in first }
        return ValidationReport(
            diagnostics: diagnostics.sorted(fileOrder: order), fileCount: inputs.files.count,
            operationCount: operationCount)
    }

    /// The diagnostics of one file, validated with the fragments it needs from other files.
    private func validate(
        file fileIndex: Int, of parsed: [Parsed], fragmentOwner: [String: Int], used: Set<String>
    ) -> [Diagnostic] {
        let file = parsed[fileIndex]
        // Fragments reached from this file that it does not define, transitively, in the
        // order they are first reached (deterministic: spreads are visited sorted).
        var needed: [(name: String, owner: Int)] = []
        var reached = Set(file.fragments.keys)
        var queue = file.spreads.sorted()
        while !queue.isEmpty {
            let name = queue.removeFirst()
            guard !reached.contains(name), let owner = fragmentOwner[name] else { continue }
            reached.insert(name)
            needed.append((name, owner))
            var inner: Set<String> = []
            if let fragment = parsed[owner].fragments[name] { collectSpreads(fragment.selectionSet, into: &inner) }
            queue.append(contentsOf: inner.sorted())
        }

        var source = file.source
        var document = file.document
        var segments: [Segment] = []
        if !needed.isEmpty {
            var bytes = file.source.utf8
            var starts: [(offset: Int, file: String, origin: SourceLocation)] = []
            for (name, owner) in needed {
                guard let fragment = parsed[owner].fragments[name] else { continue }
                let ownerSource = parsed[owner].source
                bytes.append(UInt8(ascii: "\n"))
                starts.append((bytes.count, parsed[owner].name, ownerSource.location(of: fragment.loc.start)))
                bytes.append(contentsOf: ownerSource.utf8[fragment.loc.start..<fragment.loc.end])
            }
            source = Source(bytes: bytes, name: file.name)
            do throws(GraphQLError) {
                // Each part parsed on its own, so only a limit can refuse the whole (more tokens).
                document = try parse(source, options: parseOptions)
            } catch {
                return [
                    Diagnostic(
                        severity: .error, rule: Diagnostic.Rule.syntaxError,
                        message: "\(error.message) (with the fragments it uses from other files)", file: file.name,
                        positions: [])
                ]
            }
            segments = starts.map {
                Segment(combinedLine: source.location(of: $0.offset).line, file: $0.file, origin: $0.origin)
            }
        }

        func position(_ location: SourceLocation) -> Diagnostic.Position {
            guard let segment = segments.last(where: { $0.combinedLine <= location.line }) else {
                return .init(file: file.name, line: location.line, column: location.column)
            }
            let lineOffset = location.line - segment.combinedLine
            return .init(
                file: segment.file, line: segment.origin.line + lineOffset,
                column: lineOffset == 0 ? segment.origin.column + location.column - 1 : location.column)
        }

        // Where each of the file's own fragments starts, to recognise NoUnusedFragments' reports.
        var fragmentAt: [SourceLocation: String] = [:]
        for (name, fragment) in file.fragments { fragmentAt[file.source.location(of: fragment.loc.start)] = name }

        var found: [Diagnostic] = []
        var ruleErrors = GraphQL.validate(
            schema: schema, document: document, source: source, rules: rules, maxErrors: maxErrors)
        if ruleErrors.isEmpty {
            ruleErrors = checkOperationLimits(document: document, source: source, limits: limits).map(\.withLimitRule)
        }
        for error in ruleErrors {
            let rule = error.rule ?? "Validation"
            let positions = error.locations.map(position)
            if rule == "NoUnusedFragments", let primary = positions.first {
                // Copied fragments are judged in their own file; own ones count as used when an
                // operation of any file reaches them.
                guard primary.file == file.name else { continue }
                if let name = fragmentAt[SourceLocation(line: primary.line, column: primary.column)],
                    used.contains(name)
                {
                    continue
                }
            }
            found.append(
                Diagnostic(
                    severity: .error, rule: rule, message: error.message, file: positions.first?.file ?? file.name,
                    positions: positions))
        }
        let deprecated = GraphQL.validate(
            schema: schema, document: document, source: source, rules: [noDeprecatedCustomRule], maxErrors: maxErrors)
        for error in deprecated {
            let positions = error.locations.map(position)
            found.append(
                Diagnostic(
                    severity: failOnDeprecated ? .error : .warning, rule: error.rule ?? "NoDeprecatedCustom",
                    message: error.message, file: positions.first?.file ?? file.name, positions: positions))
        }
        return found
    }

    /// Operations and fragments of one name defined in more than one file: one error at
    /// each later definition, naming the first.
    private func crossFileDuplicates(_ parsed: [Parsed]) -> [Diagnostic] {
        var firstOperation: [String: Diagnostic.Position] = [:]
        var firstFragment: [String: Diagnostic.Position] = [:]
        var found: [Diagnostic] = []
        for file in parsed {
            var seenHere: Set<String> = []
            for definition in file.document.definitions {
                let kind: String
                let name: Name
                switch definition {
                case .operation(let operation):
                    guard let operationName = operation.name else { continue }
                    (kind, name) = ("operation", operationName)
                case .fragment(let fragment):
                    (kind, name) = ("fragment", fragment.name)
                default: continue
                }
                // Repeats within one file are UniqueOperationNames' and UniqueFragmentNames' own reports.
                guard seenHere.insert(kind + " " + name.value).inserted else { continue }
                let location = file.source.location(of: name.loc.start)
                let here = Diagnostic.Position(file: file.name, line: location.line, column: location.column)
                if let first = (kind == "operation" ? firstOperation : firstFragment)[name.value] {
                    found.append(
                        Diagnostic(
                            severity: .error,
                            rule: kind == "operation" ? "UniqueOperationNames" : "UniqueFragmentNames",
                            message:
                                "There can be only one \(kind) named \"\(name.value)\": \(first.file) defines it too.",
                            file: file.name, positions: [here, first]))
                } else if kind == "operation" {
                    firstOperation[name.value] = here
                } else {
                    firstFragment[name.value] = here
                }
            }
        }
        return found
    }

    /// An error at the first byte that is not UTF-8, or nil when the file is UTF-8.
    static func utf8Problem(_ file: DocumentFiles.File) -> Diagnostic? {
        var iterator = file.bytes.makeIterator()
        var decoder = UTF8()
        var offset = 0
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar): offset += UTF8.width(scalar)
            case .emptyInput: return nil
            case .error:
                let location = Source(bytes: file.bytes, name: file.name).location(of: offset)
                let byte = String(file.bytes[offset], radix: 16, uppercase: true)
                return Diagnostic(
                    severity: .error, rule: Diagnostic.Rule.invalidUTF8,
                    message: "the file is not UTF-8: byte 0x\(byte) at offset \(offset) does not start a valid "
                        + "UTF-8 sequence (GraphQL documents are Unicode text, spec §2.1)",
                    file: file.name, positions: [.init(file: file.name, line: location.line, column: location.column)])
            }
        }
    }
}

/// Every fragment name spread in `selectionSet`, nested selections included.
func collectSpreads(_ selectionSet: SelectionSet, into names: inout Set<String>) {
    for selection in selectionSet.selections {
        switch selection {
        case .field(let field): if let inner = field.selectionSet { collectSpreads(inner, into: &names) }
        case .inlineFragment(let fragment): collectSpreads(fragment.selectionSet, into: &names)
        case .fragmentSpread(let spread): names.insert(spread.name.value)
        }
    }
}

/// Diagnostics in the order found, each once.
private struct OrderedDiagnostics {
    private var items: [Diagnostic] = []
    private var seen: Set<Diagnostic> = []

    mutating func append(_ diagnostic: Diagnostic) {
        if seen.insert(diagnostic).inserted { items.append(diagnostic) }
    }

    /// Problems with the inputs first, then by file (in input order), line and column; the
    /// order found among equals.
    func sorted(fileOrder: [String: Int]) -> [Diagnostic] {
        items.enumerated().sorted { a, b in
            func key(_ d: Diagnostic) -> (Int, Int, Int, Int) {
                (
                    d.isInputProblem ? 0 : 1, fileOrder[d.file] ?? Int.max, d.primary?.line ?? 0,
                    d.primary?.column ?? 0
                )
            }
            let (ka, kb) = (key(a.element), key(b.element))
            return ka != kb ? ka < kb : a.offset < b.offset
        }.map(\.element)
    }
}

extension GraphQLError {
    /// `extensions.rule`, the validation rule that reported this error.
    var rule: String? {
        if case .string(let rule)? = extensions["rule"] { return rule }
        return nil
    }
}
