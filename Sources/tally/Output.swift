import ArgumentParser
import Foundation
import TallyClient
import TallyJSONCoding
import TallyProtocol

/// What the subcommands print: text for people, or with `--json` one JSON document for scripts, failures included.
enum Output {
    /// A failure as `--json` prints it: the error, and whether Tally answered at all.
    struct Failure: Encodable {
        var error: TallyError
        var answered: Bool
    }

    /// Prints `value` as pretty JSON with sorted keys, the way every `--json` prints.
    static func printJSON(_ value: some Encodable) {
        var encoder = TallyJSON.encoder()
        encoder.usesFastPaths = false
        do {
            print(pretty(try encoder.encodeToBytes(value)))
        } catch {
            printError("cannot write JSON: \(error)")
        }
    }

    /// Reports `error` (on standard error, and as a `Failure` on standard output when `json`) and answers the exit
    /// status it stands for.
    static func fail(_ error: TallyClientError, json: Bool) -> ExitCode {
        printError(error.description)
        if json { printJSON(failure(error)) }
        return Status.exitCode(for: error)
    }

    static func failure(_ error: TallyClientError) -> Failure {
        Failure(error: error.server ?? TallyError(error.code, error.message), answered: error.isFromServer)
    }

    /// `bytes` as pretty JSON with sorted keys, or as they are when they are not JSON.
    static func pretty(_ bytes: [UInt8]) -> String {
        guard let object = try? JSONSerialization.jsonObject(with: Data(bytes)),
            let data = try? JSONSerialization.data(
                withJSONObject: object, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
        else { return String(decoding: bytes, as: UTF8.self) }
        return String(decoding: data, as: UTF8.self)
    }
}

/// The `--json` flag, worded the same on every subcommand.
struct OutputOptions: ParsableArguments {
    @Flag(help: "Print one JSON document on standard output, failures included.")
    var json = false
}

func printError(_ text: String) {
    FileHandle.standardError.write(Data(("tally: " + text + "\n").utf8))
}
