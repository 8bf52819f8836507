/// `musicgraph validate`: arrives with its issue.
func runValidateCommand(_ args: CommandLineArguments) -> Int32 {
  writeStderr("musicgraph validate: not implemented yet")
  return 2
}
