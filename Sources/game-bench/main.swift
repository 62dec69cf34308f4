// Times the SetGame core in a release build: `swift run -c release game-bench`.
import SetGame
import SetProtocol

#if canImport(Glibc)
    import Glibc
#endif

if CommandLine.arguments.dropFirst().first == "--version" {
    print(Release.banner("game-bench"))
    exit(0)
}

let boards12 = randomBoards(count: 256, size: 12, seed: 12)
let boards21 = randomBoards(count: 256, size: 21, seed: 21)
var checksum = 0

let allSets12 = measure(
    "SetRules.allSets, 12 cards", samples: 101, iterations: 20_000, goal: 1000,
    checksum: &checksum
) { SetRules.allSets(in: boards12[$0 & 255]).count }
let allSets21 = measure(
    "SetRules.allSets, 21 cards", samples: 101, iterations: 10_000,
    checksum: &checksum
) { SetRules.allSets(in: boards21[$0 & 255]).count }
let contains12 = measure(
    "SetRules.containsSet, 12 cards", samples: 101, iterations: 50_000,
    checksum: &checksum
) { SetRules.containsSet(boards12[$0 & 255]) ? 1 : 0 }
let wholeGame = measure(
    "whole game (init + claims)", samples: 51, iterations: 40, unit: "µs", goal: 1000,
    checksum: &checksum
) { playWholeGame(seed: UInt64($0)) }

printTable([allSets12, allSets21, contains12, wholeGame])
print("checksum", checksum)
