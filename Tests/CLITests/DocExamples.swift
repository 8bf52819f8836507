import Foundation
import HTTPClient
import HTTPTypes
import TestSupport

// The examples of the user docs (README.md, docs/*.md, examples/*.graphql), found and run
// against the demo catalog.
//
// - A fenced block tagged `graphql` is a query: it is POSTed to a `serve --demo` child.
// - A fenced block tagged `sh` is a list of commands: `curl` lines (to `localhost:8080`, the
//   child's address in their place) and `musicgraph query|validate|explain|format|exec|schema`
//   lines run, in one bash per block; `NAME=…` lines are kept for them, `export` lines and a
//   `musicgraph serve` line are stood in for by the child (a `serve` with flags other than
//   `--port` and `--demo` gets a child of its own with those flags). Any other command makes
//   the block a failure unless it is marked.
// - An examples/*.graphql file is run by the `# musicgraph …` command lines of its comments, or
//   POSTed as it is when it has none; a file with several operations must name each in a
//   command's `--operation`.
//
// An answer fails on an exit status other than 0, an error whose `extensions.code` the text does
// not announce, a `null` or an empty list anywhere in its data. The last non-blank line before a
// block may be a marker: `<!-- example: not run (why) -->` skips the block;
// `<!-- example: expect error CODE[, CODE…] -->` announces errors (each command of the block must
// answer one of them). A shell command announces the codes its trailing comment names.

/// What the examples of one text gave.
struct DocExampleReport {
    /// Examples found: GraphQL and shell blocks, example files.
    var found = 0
    /// Queries and commands run.
    var run = 0
    /// Examples marked not run, with where they are and why.
    var notRun: [String] = []
    /// Where an example did not answer, and how.
    var failures: [String] = []

    mutating func add(_ other: DocExampleReport) {
        found += other.found
        run += other.run
        notRun += other.notRun
        failures += other.failures
    }
}

enum DocExamples {
    /// What a marker line directly before a fenced block says.
    enum Marker: Equatable {
        case notRun(String)
        case expectError(Set<String>)
    }

    enum Kind: Equatable {
        case query
        case shell
    }

    /// One example: a fenced block, or an example file's query or commands.
    struct Example {
        var location: String
        var kind: Kind
        var text: String
        var marker: Marker?
    }

    static let queryTags: Set<String> = ["graphql", "gql"]
    static let shellTags: Set<String> = ["sh", "bash", "shell"]

    // MARK: Finding examples

    /// The GraphQL and shell blocks of `markdown`, each with its marker; stray or unreadable
    /// markers are problems.
    static func examples(markdown: String, file: String) -> (examples: [Example], problems: [String]) {
        var examples: [Example] = []
        var problems: [String] = []
        let lines = markdown.components(separatedBy: "\n")
        var pending: (marker: Marker, line: Int)?
        var index = 0
        while index < lines.count {
            let trimmed = lines[index].trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("<!-- example:") {
                if let pending { problems.append("\(file):\(pending.line): a marker with no block after it") }
                switch marker(trimmed) {
                case .success(let marker): pending = (marker, index + 1)
                case .failure(let problem):
                    problems.append("\(file):\(index + 1): \(problem.description)")
                    pending = nil
                }
                index += 1
                continue
            }
            if trimmed.hasPrefix("```") || trimmed.hasPrefix("~~~") {
                let fence = String(trimmed.prefix { $0 == trimmed.first })
                let tag = trimmed.dropFirst(fence.count).split(separator: " ").first.map { $0.lowercased() } ?? ""
                var body: [String] = []
                var end = index + 1
                while end < lines.count, !lines[end].trimmingCharacters(in: .whitespaces).hasPrefix(fence) {
                    body.append(lines[end])
                    end += 1
                }
                let location = "\(file):\(index + 1)"
                let kind: Kind? = queryTags.contains(tag) ? .query : shellTags.contains(tag) ? .shell : nil
                if let kind {
                    examples.append(
                        Example(
                            location: location, kind: kind, text: body.joined(separator: "\n"),
                            marker: pending?.marker))
                } else if pending != nil {
                    problems.append("\(location): a marker before a ```\(tag) block, which is never run")
                }
                pending = nil
                index = end + 1
                continue
            }
            if !trimmed.isEmpty, let marked = pending {
                problems.append("\(file):\(marked.line): a marker not directly before a block")
                pending = nil
            }
            index += 1
        }
        if let pending { problems.append("\(file):\(pending.line): a marker with no block after it") }
        return (examples, problems)
    }

    /// An examples/*.graphql file: its `# musicgraph …` comment lines as one shell example, or
    /// the file as a query when it has none.
    static func examples(graphqlFile text: String, file: String) -> (examples: [Example], problems: [String]) {
        let commands = text.components(separatedBy: "\n").compactMap { line -> String? in
            guard line.hasPrefix("#") else { return nil }
            let comment = line.dropFirst().trimmingCharacters(in: .whitespaces)
            return isMusicgraph(comment.split(separator: " ").first.map(String.init) ?? "") ? comment : nil
        }
        let operations = matches(#"(?m)^\s*(?:query|mutation|subscription)\s+([_A-Za-z][_0-9A-Za-z]*)"#, in: text)
        guard !commands.isEmpty else {
            let problems =
                operations.count > 1
                ? ["\(file): \(operations.count) operations and no `# musicgraph query --operation …` line to run them"]
                : []
            return ([Example(location: file, kind: .query, text: text)], problems)
        }
        let named = Set(commands.flatMap { matches(#"--operation\s+([_A-Za-z][_0-9A-Za-z]*)"#, in: $0) })
        let problems =
            operations.count > 1
            ? operations.filter { !named.contains($0) }.map { "\(file): no `# musicgraph …` line runs operation \($0)" }
            : []
        return ([Example(location: file, kind: .shell, text: commands.joined(separator: "\n"))], problems)
    }

    static func marker(_ line: String) -> Result<Marker, CLIProcessError> {
        let content = line.dropFirst("<!-- example:".count).replacingOccurrences(of: "-->", with: "")
            .trimmingCharacters(in: .whitespaces)
        if content.hasPrefix("not run") {
            let reason = content.dropFirst("not run".count).trimmingCharacters(in: .whitespaces)
            guard reason.hasPrefix("("), reason.hasSuffix(")"), reason.count > 2 else {
                return .failure(CLIProcessError("`not run` needs its reason in parentheses: \(line)"))
            }
            return .success(.notRun(String(reason.dropFirst().dropLast())))
        }
        if content.hasPrefix("expect error") {
            let codes = Set(matches(#"([A-Z][A-Z0-9_]+)"#, in: String(content.dropFirst("expect error".count))))
            guard !codes.isEmpty else { return .failure(CLIProcessError("`expect error` names no code: \(line)")) }
            return .success(.expectError(codes))
        }
        return .failure(CLIProcessError("not a marker (`not run (why)`, `expect error CODE`): \(line)"))
    }

    // MARK: Shell commands

    /// One shell command: its lines joined, without its trailing comment.
    struct Command {
        var text: String
        var comment: String
        /// Error codes its comment names (`# PERSISTED_QUERY_NOT_FOUND`).
        var announced: Set<String> { Set(matches(#"\b([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)\b"#, in: comment)) }
    }

    /// What the runner does with a command.
    enum Step {
        /// Kept as it is: an assignment the commands after it use.
        case keep(String)
        /// Stood in for by the runner's gateway: `export`, a `serve` (with its extra flags).
        case serve([String])
        case dropped
        case run(Command)
        case unknown(Command)
    }

    /// The commands of a shell block: a line ending in `\\` or inside an open quote goes on.
    static func commands(shell: String) -> [Command] {
        var commands: [Command] = []
        var current = ""
        for line in shell.components(separatedBy: "\n") {
            current += current.isEmpty ? line : "\n" + line
            let (text, comment) = splitComment(current)
            if text.trimmingCharacters(in: .whitespaces).hasSuffix("\\") || openQuote(text) { continue }
            if !text.trimmingCharacters(in: .whitespaces).isEmpty {
                commands.append(Command(text: text.trimmingCharacters(in: .whitespaces), comment: comment))
            }
            current = ""
        }
        return commands
    }

    /// Whether `text` ends inside a quoted string.
    static func openQuote(_ text: String) -> Bool {
        var quote: Character?
        var escaped = false
        for character in text {
            if escaped {
                escaped = false
            } else if character == "\\" && quote != "'" {
                escaped = true
            } else if let open = quote {
                if character == open { quote = nil }
            } else if character == "'" || character == "\"" {
                quote = character
            }
        }
        return quote != nil
    }

    /// `text # comment` split where the comment starts (a `#` outside quotes after a blank).
    static func splitComment(_ line: String) -> (String, String) {
        var quote: Character?
        var escaped = false
        var previous: Character = " "
        for index in line.indices {
            let character = line[index]
            defer { previous = character }
            if escaped {
                escaped = false
                continue
            }
            if character == "\\" && quote != "'" {
                escaped = true
                continue
            }
            if let open = quote {
                if character == open { quote = nil }
            } else if character == "'" || character == "\"" {
                quote = character
            } else if character == "#" && previous.isWhitespace {
                return (String(line[..<index]), String(line[line.index(after: index)...]))
            }
        }
        return (line, "")
    }

    static func isMusicgraph(_ word: String) -> Bool { word == "musicgraph" || word.hasSuffix("/musicgraph") }

    static func step(_ command: Command) -> Step {
        let words = command.text.split(whereSeparator: \.isWhitespace).map(String.init)
        guard let first = words.first else { return .dropped }
        if first.range(of: #"^[A-Za-z_][A-Za-z0-9_]*="#, options: .regularExpression) != nil {
            return .keep(command.text)
        }
        if first == "export" { return .dropped }
        if isMusicgraph(first), words.count > 1 {
            if words[1] == "serve" {
                var flags: [String] = []
                var rest = words.dropFirst(2).filter { $0 != "&" }[...]
                while let flag = rest.popFirst() {
                    if flag == "--port" {
                        _ = rest.popFirst()
                    } else if flag != "--demo" {
                        flags.append(flag)
                    }
                }
                return .serve(flags)
            }
            let runnable: Set<String> = ["query", "validate", "explain", "format", "exec", "schema"]
            return runnable.contains(words[1]) ? .run(command) : .unknown(command)
        }
        if first == "curl" {
            let ports = matches(#"(?:localhost|127\.0\.0\.1):([0-9]+)"#, in: command.text)
            return !ports.isEmpty && ports.allSatisfy { $0 == "8080" } ? .run(command) : .unknown(command)
        }
        return .unknown(command)
    }

    // MARK: Judging answers

    /// What is wrong with one answer: its output and exit status, given the error codes its text
    /// announces.
    static func problems(output: String, status: Int32, announced: Set<String>) -> [String] {
        var problems: [String] = []
        var seen: Set<String> = []
        let lines = output.components(separatedBy: "\n").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        for statusLine in lines where statusLine.hasPrefix("HTTP/") {
            let code = statusLine.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
            if !(200..<300).contains(code) && announced.isEmpty { problems.append("answered \(statusLine)") }
        }
        var values: [Any] = []
        if let whole = json(output) {
            values = [whole]
        } else {
            values = lines.filter { $0.hasPrefix("{") || $0.hasPrefix("[") }.compactMap(json)
        }
        let objects = values.flatMap { value -> [[String: Any]] in
            if let array = value as? [Any] { return array.compactMap { $0 as? [String: Any] } }
            return (value as? [String: Any]).map { [$0] } ?? []
        }
        for object in objects {
            for error in object["errors"] as? [[String: Any]] ?? [] {
                let code = (error["extensions"] as? [String: Any])?["code"] as? String ?? "(no code)"
                seen.insert(code)
                if !announced.contains(code) {
                    problems.append("error \(code) the text does not announce: \(error["message"] ?? "")")
                }
            }
            if let data = object["data"] {
                if data is NSNull {
                    if seen.isDisjoint(with: announced) { problems.append("data is null") }
                } else {
                    emptiness(data, path: "data", into: &problems)
                }
            }
            for (index, part) in (object["incremental"] as? [[String: Any]] ?? []).enumerated() {
                if let data = part["data"] { emptiness(data, path: "incremental[\(index)].data", into: &problems) }
                if let items = part["items"] { emptiness(items, path: "incremental[\(index)].items", into: &problems) }
            }
        }
        if !announced.isEmpty && seen.isDisjoint(with: announced) {
            problems.append("announces \(announced.sorted().joined(separator: ", ")), but answered no such error")
        }
        if status != 0 && announced.isEmpty { problems.append("exit status \(status)") }
        if output.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { problems.append("no output") }
        return problems
    }

    /// Every `null` and empty list in `value`, by its path.
    static func emptiness(_ value: Any, path: String, into problems: inout [String]) {
        if value is NSNull {
            problems.append("\(path) is null")
        } else if let array = value as? [Any] {
            if array.isEmpty { problems.append("\(path) is []") }
            for (index, item) in array.enumerated() { emptiness(item, path: "\(path)[\(index)]", into: &problems) }
        } else if let object = value as? [String: Any] {
            for key in object.keys.sorted() { emptiness(object[key]!, path: "\(path).\(key)", into: &problems) }
        }
    }

    static func json(_ text: String) -> Any? {
        try? JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])
    }

    static func matches(_ pattern: String, in text: String) -> [String] {
        guard let regex = try? NSRegularExpression(pattern: pattern) else { return [] }
        let range = NSRange(text.startIndex..., in: text)
        return regex.matches(in: text, range: range).compactMap { match in
            Range(match.range(at: 1), in: text).map { String(text[$0]) }
        }
    }
}

/// Runs examples against `musicgraph serve --demo` children (one shared, one more for a block
/// whose `serve` line has flags of its own).
final class DocExampleRunner {
    let gateway: CLIChild

    init() throws { gateway = try CLIChild(["serve", "--demo", "--port", "0"]) }

    func stop() { gateway.stop() }

    /// Checks every example of a Markdown text.
    func check(markdown: String, file: String) async -> DocExampleReport {
        let (examples, problems) = DocExamples.examples(markdown: markdown, file: file)
        var report = await check(examples)
        report.failures = problems + report.failures
        return report
    }

    /// Checks an examples/*.graphql file.
    func check(graphqlFile text: String, file: String) async -> DocExampleReport {
        let (examples, problems) = DocExamples.examples(graphqlFile: text, file: file)
        var report = await check(examples)
        report.failures = problems + report.failures
        return report
    }

    func check(_ examples: [DocExamples.Example]) async -> DocExampleReport {
        var report = DocExampleReport()
        for example in examples {
            report.found += 1
            var announced: Set<String> = []
            switch example.marker {
            case .notRun(let reason):
                report.notRun.append("\(example.location) (\(reason))")
                continue
            case .expectError(let codes): announced = codes
            case nil: break
            }
            switch example.kind {
            case .query:
                report.run += 1
                do {
                    let output = try await query(example.text)
                    let problems = DocExamples.problems(output: output, status: 0, announced: announced)
                    report.failures += problems.map { "\(example.location): \($0)\n  \(output.prefix(300))" }
                } catch {
                    report.failures.append("\(example.location): \(error)")
                }
            case .shell:
                report.add(shell(example, announced: announced))
            }
        }
        return report
    }

    /// POSTs a query to the shared gateway and returns the response body.
    func query(_ text: String) async throws -> String {
        let body = try JSONSerialization.data(withJSONObject: ["query": text])
        let response = try await HTTPClient().execute(
            HTTPClientRequest(
                method: .post, url: gateway.url, headers: ["Content-Type": "application/json"], body: Array(body)))
        return String(decoding: response.body, as: UTF8.self)
    }

    func shell(_ example: DocExamples.Example, announced: Set<String>) -> DocExampleReport {
        var report = DocExampleReport()
        let steps = DocExamples.commands(shell: example.text).map(DocExamples.step)
        var serveFlags: [String] = []
        var toRun: [DocExamples.Command] = []
        var script = [
            #"musicgraph() { "$MUSICGRAPH_BIN" "$@"; }"#, #"curl() { command curl --max-time 30 "$@"; }"#,
        ]
        for step in steps {
            switch step {
            case .keep(let text): script.append(text)
            case .serve(let flags): serveFlags += flags
            case .dropped: break
            case .unknown(let command):
                report.failures.append(
                    "\(example.location): `\(command.text)` does not run against the demo: change it, or mark "
                        + "the block <!-- example: not run (why) -->")
            case .run(let command):
                toRun.append(command)
                var text = command.text
                for build in [".build/debug/musicgraph", ".build/release/musicgraph"] {
                    text = text.replacingOccurrences(of: build, with: "musicgraph")
                }
                script.append(text)
                script.append(#"printf '\n\036%d\n' "$?""#)
            }
        }
        guard report.failures.isEmpty else { return report }
        guard !toRun.isEmpty else {
            report.failures.append("\(example.location): no curl or musicgraph command to run: mark the block")
            return report
        }
        var child = gateway
        var own: CLIChild?
        if !serveFlags.isEmpty {
            do {
                own = try CLIChild(["serve", "--demo", "--port", "0"] + serveFlags)
                child = own!
            } catch {
                report.failures.append("\(example.location): serve \(serveFlags.joined(separator: " ")): \(error)")
                return report
            }
        }
        defer { own?.stop() }
        guard child.url.hasPrefix("http://") else {
            report.failures.append("\(example.location): serve \(serveFlags.joined(separator: " ")) did not start")
            return report
        }
        let address = child.url.replacingOccurrences(of: "http://", with: "")
            .replacingOccurrences(of: "/graphql", with: "")
        let text = script.joined(separator: "\n").replacingOccurrences(of: "localhost:8080", with: address)
        report.run += toRun.count
        let run: ProcessRun
        do {
            run = try Self.bash(text)
        } catch {
            report.failures.append("\(example.location): \(error)")
            return report
        }
        let parts = run.stdout.components(separatedBy: "\u{1E}")
        guard parts.count == toRun.count + 1 else {
            report.failures.append(
                "\(example.location): the block stopped after \(parts.count - 1) of \(toRun.count) commands: "
                    + run.stderr)
            return report
        }
        for (index, command) in toRun.enumerated() {
            let status = Int32(parts[index + 1].prefix { $0 != "\n" }) ?? -1
            let output = index == 0 ? parts[0] : String(parts[index].drop { $0 != "\n" })
            let problems = DocExamples.problems(
                output: output, status: status, announced: announced.union(command.announced))
            report.failures += problems.map {
                "\(example.location): `\(command.text.prefix(120))`: \($0)\n  \(output.prefix(300)) \(run.stderr.prefix(300))"
            }
        }
        return report
    }

    /// Runs a bash script in the repository root, with the CLI tests' environment.
    static func bash(_ script: String) throws -> ProcessRun {
        try runProcess(
            URL(fileURLWithPath: "/bin/bash"), ["-c", script], in: CLI.root,
            environment: CLI.childEnvironment(["MUSICGRAPH_BIN": try CLI.binary().path]))
    }
}
