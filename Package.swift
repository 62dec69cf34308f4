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
        // The server's rules of play without I/O: commands in, effects out, a clock passed in.
        .target(name: "SetServerCore", dependencies: ["SetGame", "SetProtocol"], exclude: ["README.md"]),
        // The Dispatch shell around the core: listener, sockets, backpressure, the journal file.
        .target(name: "SetServer", dependencies: ["SetServerCore", "SetProtocol", "SetSocket"]),
        // The client's view of a game, the terminal renderer, and the bots.
        .target(name: "SetClient", dependencies: ["SetGame", "SetProtocol", "SetSocket"]),
        // Test helpers shared by the test targets and the fuzzers: the in-memory server, loopback
        // clients and test daemons, and reference oracles written from the rules and protocol.md.
        .target(
            name: "SetTestSupport", dependencies: ["SetServerCore", "SetServer", "SetProtocol", "SetGame"]),
        .executableTarget(name: "setd", dependencies: ["SetServer", "SetServerCore", "SetSocket"]),
        .executableTarget(name: "set-cli", dependencies: ["SetClient"]),
        .executableTarget(name: "set-bench", dependencies: ["SetClient"]),
        .executableTarget(name: "game-bench", dependencies: ["SetGame"]),
        .executableTarget(name: "journal-bench", dependencies: ["SetServerCore", "SetTestSupport"]),
        .testTarget(name: "SetGameTests", dependencies: ["SetGame", "SetTestSupport"]),
        .testTarget(name: "SetProtocolTests", dependencies: ["SetProtocol", "SetTestSupport"]),
        .testTarget(
            name: "SetServerTests",
            dependencies: ["SetServer", "SetServerCore", "SetTestSupport", "SetProtocol", "SetGame"]),
        .testTarget(
            name: "SetServerCoreTests",
            dependencies: ["SetServerCore", "SetTestSupport", "SetProtocol", "SetGame"]),
        .testTarget(name: "SetClientTests", dependencies: ["SetClient", "SetTestSupport"]),
    ]
)
