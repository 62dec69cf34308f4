// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "setd",
    products: [
        .executable(name: "setd", targets: ["setd"]),
        .executable(name: "set-cli", targets: ["set-cli"]),
        .executable(name: "set-bench", targets: ["set-bench"]),
        .library(name: "SetGame", targets: ["SetGame"]),
    ],
    targets: [
        // The rules of SET and Matchismo: value types, no I/O, no clock, no global RNG.
        .target(name: "SetGame"),
        // Client lines to commands and server lines to text. Pure; no sockets.
        .target(name: "SetProtocol", dependencies: ["SetGame"]),
        // The one thin layer over POSIX sockets, shared by the server and the clients.
        .target(name: "SetSocket"),
        // The Dispatch shell: sockets, connections, rooms, limits.
        .target(name: "SetServer", dependencies: ["SetGame", "SetProtocol", "SetSocket"]),
        // The client's view of a game, the terminal renderer, and the bots.
        .target(name: "SetClient", dependencies: ["SetGame", "SetProtocol", "SetSocket"]),
        // Reference oracles written from the rules and protocol.md, shared by the tests and the fuzzers.
        .target(name: "SetTestSupport", dependencies: ["SetGame", "SetProtocol"]),
        .executableTarget(name: "setd", dependencies: ["SetServer"]),
        .executableTarget(name: "set-cli", dependencies: ["SetClient"]),
        .executableTarget(name: "set-bench", dependencies: ["SetClient"]),
        .executableTarget(name: "game-bench", dependencies: ["SetGame"]),
        .testTarget(name: "SetGameTests", dependencies: ["SetGame", "SetTestSupport"]),
        .testTarget(name: "SetProtocolTests", dependencies: ["SetProtocol", "SetTestSupport"]),
        .testTarget(
            name: "SetServerTests", dependencies: ["SetServer", "SetProtocol", "SetGame", "SetTestSupport"]),
        .testTarget(name: "SetClientTests", dependencies: ["SetClient"]),
    ]
)
