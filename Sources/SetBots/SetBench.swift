import Foundation
import SetSocket

/// The `set-bench` command: parses the arguments, runs a fleet of bots and prints the report.
public enum SetBench {
    /// Runs the command with `arguments` (without the program name) and returns the exit status: 0 for
    /// a clean run, 1 when anything went wrong, 2 for a bad command line.
    public static func main(_ arguments: [String]) -> Int32 {
        let options: BenchOptions
        do {
            options = try BenchOptions.parse(arguments)
        } catch {
            if error.isVersion {
                print(error.message)
                return 0
            }
            if error.isHelp {
                print(BenchOptions.usage)
                return 0
            }
            FileHandle.standardError.write(Data("set-bench: \(error)\n\(BenchOptions.usage)\n".utf8))
            return 2
        }
        Socket.ignoreBrokenPipes()
        if let failure = ServerProbe.failure(host: options.host, port: options.port) {
            // One line, before any bot starts: a fleet against nothing would only count failures.
            FileHandle.standardError.write(
                Data("set-bench: cannot connect to \(options.host):\(options.port): \(failure)\n".utf8))
            return 1
        }
        let report = BotFleet(options: options).runBlocking()
        print(options.json ? report.json : report.text)
        if let reason = report.noSetsReason {
            FileHandle.standardError.write(Data("set-bench: \(reason)\n".utf8))
        }
        return report.isClean ? 0 : 1
    }
}
