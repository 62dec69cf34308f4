// Bots that play SET over the protocol, as company or as load: see `set-bench --help`.
import Foundation
import SetBots

exit(SetBench.main(Array(CommandLine.arguments.dropFirst())))
