// Bots that play SET over the protocol, as company or as load: see `set-bench --help`.
import Foundation
import SetClient

exit(SetBench.main(Array(CommandLine.arguments.dropFirst())))
