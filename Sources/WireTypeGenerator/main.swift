// The program's two entry points. A build runs this tool for TallyProtocol, and so does the fuzzing build
// (scripts/fuzz), in which `swift build --sanitize fuzzer` compiles every executable as a library and links
// libFuzzer's `main` into it: a `main` of the tool's own (top-level code, `@main`) does not compile or link there.
// So the program is a global's initializer, which runs as this file's top-level code in a plain build and not at
// all in a library one, where libFuzzer's `main` calls `LLVMFuzzerInitialize` first and the tool generates there.

import Foundation

/// Generates as this file's top-level code runs.
let generated: Void = Generation.run(CommandLine.arguments)

/// libFuzzer's `main` calls this before anything else: the tool generates from its arguments and exits, so that
/// libFuzzer never fuzzes it.
@_cdecl("LLVMFuzzerInitialize")
func fuzzingBuildEntry(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>
) -> CInt {
    Generation.run(CommandLine.arguments)
    exit(0)
}

/// Never called (the tool exits in `LLVMFuzzerInitialize`); libFuzzer's `main` needs it to link.
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzingBuildTarget(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt { 0 }
