/// `musicgraph schema`: arrives with its issue.
func runSchemaCommand(_ args: CommandLineArguments) -> Int32 {
  writeStderr("musicgraph schema: not implemented yet")
  return 2
}
