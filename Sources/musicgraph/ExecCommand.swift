/// `musicgraph exec`: arrives with its issue.
func runExecCommand(_ args: CommandLineArguments) -> Int32 {
  writeStderr("musicgraph exec: not implemented yet")
  return 2
}
