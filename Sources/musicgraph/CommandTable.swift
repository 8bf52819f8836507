/// One `musicgraph` command: what `musicgraph help` lists and what `dispatch` runs.
struct Command {
    /// The word after `musicgraph`.
    let name: String
    /// The arguments after the name as `musicgraph help` lists them; nil leaves the command
    /// out of the list (the benchmark helpers, which scripts call by name).
    let synopsis: String?
    /// What the command does, in a few words.
    let summary: String
    /// Every option and switch the command takes (`--help` and `-h` aside): `dispatch` refuses
    /// any other before the command runs, naming the nearest one. Nil: the command checks its own.
    let options: Set<String>?
    /// Runs the command and returns its exit status; given `--help`, prints its options (exit 0).
    let run: (CommandLineArguments) -> Int32
}

/// Runs what `argv` (the arguments after `musicgraph`) asks for and returns the exit status:
/// a command of `commands`, `help [COMMAND]` or `--version`. An unknown command or option is
/// one line on stderr, with the nearest known one when there is one (exit 2).
func dispatch(_ argv: [String], commands: [Command]) -> Int32 {
    guard let name = argv.first else {
        writeStdout(usage(commands))
        return 2
    }
    let rest = Array(argv.dropFirst())
    switch name {
    case "--help", "-h":
        writeStdout(usage(commands))
        return 0
    case "help":
        return help(rest, commands: commands)
    case "--version", "version":
        guard rest.isEmpty else { return fail("version", CLIError("takes no arguments")) }
        writeStdout(BuildInfo.versionLine + "\n")
        return 0
    default:
        guard let command = commands.first(where: { $0.name == name }) else {
            return unknownCommand(name, commands: commands, context: "musicgraph")
        }
        let args = CommandLineArguments(rest)
        if !args.wantsHelp, let options = command.options, let problem = args.unknownOption(allowed: options) {
            return fail(name, problem)
        }
        return command.run(args)
    }
}

/// `musicgraph help [COMMAND]`: the command list, or what `COMMAND --help` prints.
private func help(_ argv: [String], commands: [Command]) -> Int32 {
    guard let name = argv.first else {
        writeStdout(usage(commands))
        return 0
    }
    guard argv.count == 1 else { return fail("help", CLIError("expects one COMMAND; see musicgraph help")) }
    switch name {
    case "help":
        writeStdout("usage: musicgraph help [COMMAND]\n\nLists the commands, or prints COMMAND's options.\n")
        return 0
    case "version", "--version":
        writeStdout(
            "usage: musicgraph --version (or musicgraph version)\n\n"
                + "Prints \"musicgraph VERSION (COMMIT)\": the commit is the one `make` built from.\n")
        return 0
    default:
        guard let command = commands.first(where: { $0.name == name && $0.synopsis != nil }) else {
            return unknownCommand(name, commands: commands, context: "musicgraph help")
        }
        return command.run(CommandLineArguments(["--help"]))
    }
}

private func unknownCommand(_ name: String, commands: [Command], context: String) -> Int32 {
    let known = commands.filter { $0.synopsis != nil }.map(\.name) + ["help", "version"]
    if let near = nearest(to: name, among: known) {
        writeStderr("\(context): unknown command '\(name)'; did you mean '\(near)'?")
    } else {
        writeStderr("\(context): unknown command '\(name)'\n\n\(usage(commands))")
    }
    return 2
}

/// The text of `musicgraph help`: the listed commands with their synopses, then the built-ins.
func usage(_ commands: [Command]) -> String {
    // The summaries line up after the longest synopsis that fits; longer ones take a line of their own.
    let column = 40
    var lines = ["usage: musicgraph <command> [options]", "", "commands:"]
    let listed = commands.compactMap { command in command.synopsis.map { (command.name + " " + $0, command.summary) } }
    let builtIns = [
        ("help [COMMAND]", "this list, or one command's options"),
        ("version", "the version and its commit (also --version)"),
    ]
    for (synopsis, summary) in listed + builtIns {
        if synopsis.count < column - 1 {
            lines.append("  " + synopsis + String(repeating: " ", count: column - synopsis.count) + summary)
        } else {
            lines.append("  " + synopsis)
            lines.append(String(repeating: " ", count: column + 2) + summary)
        }
    }
    lines += [
        "",
        "validate, exec and schema read ./schema.graphql without --schema, else the gateway's",
        "built-in schema (as serve does).",
        "",
        "Run `musicgraph help <command>` (or `musicgraph <command> --help`) for a command's options.",
    ]
    return lines.joined(separator: "\n") + "\n"
}
