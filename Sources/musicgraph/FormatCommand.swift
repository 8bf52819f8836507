/// `musicgraph format`: arrives with its issue.
func runFormatCommand(_ args: CommandLineArguments) -> Int32 {
  writeStderr("musicgraph format: not implemented yet")
  return 2
}
