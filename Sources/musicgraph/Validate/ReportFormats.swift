/// The ways `validate` prints a `ValidationReport` (`--format`).
enum ReportFormat: String, CaseIterable {
    /// `{"errors":[…]}`: the one-document contract of the conformance kit; with several
    /// files each location names its file and a `summary` follows.
    case json
    /// Compiler diagnostics, `path:line:col: error: message [Rule]`, then the summary line.
    case text
    /// GitHub Actions workflow commands (`::error file=…,line=…,col=…,title=Rule::message`).
    case github
    /// SARIF 2.1.0 for code-scanning tools.
    case sarif
}

extension ValidationReport {
    /// One line per finding, `path:line:col: severity: message [Rule]` (`path: severity: …`
    /// when it has no position), other positions as `(see also path:line:col)`; then the
    /// summary line.
    func text() -> String {
        var out = ""
        for diagnostic in diagnostics {
            if let primary = diagnostic.primary {
                out += "\(primary.file):\(primary.line):\(primary.column): "
            } else {
                out += "\(diagnostic.file): "
            }
            out += "\(diagnostic.severity.rawValue): \(oneLine(diagnostic.message))"
            let related = diagnostic.positions.dropFirst()
            if !related.isEmpty {
                out +=
                    " (see also " + related.map { "\($0.file):\($0.line):\($0.column)" }.joined(separator: ", ") + ")"
            }
            out += " [\(diagnostic.rule)]\n"
        }
        return out + summary + "\n"
    }

    /// GitHub Actions workflow commands: `::error` / `::warning` with `file`, `line`, `col`
    /// and `title` (the rule), which the runner turns into annotations on the lines; then
    /// the summary as a plain line. Property values and messages are escaped as the runner
    /// expects (`%`, CR, LF; in properties also `:` and `,`).
    func github() -> String {
        var out = ""
        for diagnostic in diagnostics {
            var properties = ["file=" + escapeProperty(diagnostic.primary?.file ?? diagnostic.file)]
            if let primary = diagnostic.primary {
                properties.append("line=\(primary.line)")
                properties.append("col=\(primary.column)")
            }
            properties.append("title=" + escapeProperty(diagnostic.rule))
            var message = diagnostic.message
            let related = diagnostic.positions.dropFirst()
            if !related.isEmpty {
                message +=
                    " (see also " + related.map { "\($0.file):\($0.line):\($0.column)" }.joined(separator: ", ")
                    + ")"
            }
            out += "::\(diagnostic.severity.rawValue) \(properties.joined(separator: ","))::\(escapeData(message))\n"
        }
        return out + summary + "\n"
    }

    /// `{"errors":[…],"warnings":[…],"summary":{…}}`: each finding in the GraphQL error
    /// shape (spec §7.1.2) with `extensions.rule` and `extensions.file`, and each location
    /// naming its file; `warnings` only when there are any.
    func json() -> String {
        func entry(_ diagnostic: Diagnostic) -> String {
            var out = "{\"message\":" + jsonQuoted(diagnostic.message)
            if !diagnostic.positions.isEmpty {
                out += ",\"locations\":["
                out += diagnostic.positions.map {
                    "{\"line\":\($0.line),\"column\":\($0.column),\"file\":\(jsonQuoted($0.file))}"
                }.joined(separator: ",")
                out += "]"
            }
            return out
                + ",\"extensions\":{\"rule\":\(jsonQuoted(diagnostic.rule)),\"file\":\(jsonQuoted(diagnostic.file))}}"
        }
        let errors = diagnostics.filter { $0.severity == .error }.map(entry)
        let warnings = diagnostics.filter { $0.severity == .warning }.map(entry)
        var out = "{\"errors\":[" + errors.joined(separator: ",") + "]"
        if !warnings.isEmpty { out += ",\"warnings\":[" + warnings.joined(separator: ",") + "]" }
        out += ",\"summary\":{\"files\":\(fileCount),\"operations\":\(operationCount),\"errors\":\(errorCount)"
        out += ",\"warnings\":\(warningCount)}}\n"
        return out
    }
}

/// `text` on one line: a message with line breaks would split a diagnostic in two.
private func oneLine(_ text: String) -> String {
    text.contains(where: \.isNewline) ? text.split(whereSeparator: \.isNewline).joined(separator: " ") : text
}

/// A workflow command's message: `%`, CR and LF percent-encoded.
private func escapeData(_ text: String) -> String {
    var out = ""
    for character in text.unicodeScalars {
        switch character {
        case "%": out += "%25"
        case "\r": out += "%0D"
        case "\n": out += "%0A"
        default: out.unicodeScalars.append(character)
        }
    }
    return out
}

/// A workflow command's property value: as a message, and `:` and `,` too.
private func escapeProperty(_ text: String) -> String {
    escapeData(text).replacing(":", with: "%3A").replacing(",", with: "%2C")
}
