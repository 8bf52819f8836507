import CLibFuzzer

#if canImport(Glibc)
    import Glibc
#endif

/// Runs libFuzzer with the process's arguments (`-max_total_time=N`, a corpus folder, …) on
/// `callback`, which gets each input's bytes and returns 0, and exits with libFuzzer's status.
///
/// SwiftPM links an executable's `main` to the module's own entry point, so a target calls
/// this from `main.swift` instead of leaving `main` to libFuzzer.
public func runFuzzer(_ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt) -> Never {
    var argc = CommandLine.argc
    var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
    exit(LLVMFuzzerRunDriver(&argc, &argv, callback))
}
