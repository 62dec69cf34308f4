// swift-tools-version:6.0
import PackageDescription

/// The pure layers and the test support are compiled with `-O` in debug builds too. `swift test` runs them
/// millions of times (property tests over every mode, a thousand recorded games, the engine under every
/// test client), and unoptimised they took half of the run's CPU: 124 s of user time for the whole run
/// before, 65 s after (measured on this 2-core machine). `-O` keeps overflow and `precondition` checks
/// (these modules use no `assert`), and `-DDEBUG` and `@testable` still apply. What it costs: stepping
/// through these modules in a debugger, and SwiftPM refuses unsafe flags in a package depended on by
/// version, so another package can use the `SetGame` library by branch or path only.
let optimizedInDebug: [SwiftSetting] = [.unsafeFlags(["-O"], .when(configuration: .debug))]

/// The run-time exclusivity checks are left out of release builds of the modules every delivered line and
/// every command pass through (the rules, the protocol, the core, the engine, the socket layer, the shell),
/// and of the simulator's (its checks and the test support it runs). Each access to a class's stored
/// property, a global or a captured variable calls into the runtime to record it: flat out, that was a
/// tenth to a fifth of setd's CPU per delivered line (issue 28). Debug builds, and so `swift test` and the
/// fuzzers, keep the checks: an overlapping access is a bug in our code, never something a client's input
/// decides, and the tests run every path with the checks on.
let uncheckedInRelease: [SwiftSetting] = [
    .unsafeFlags(["-enforce-exclusivity=unchecked"], .when(configuration: .release))
]

let package = Package(
    name: "setd",
    products: [
        .executable(name: "setd", targets: ["setd"]),
        .executable(name: "set-cli", targets: ["set-cli"]),
        .executable(name: "set-bench", targets: ["set-bench"]),
        .executable(name: "set-sim", targets: ["set-sim"]),
        .library(name: "SetGame", targets: ["SetGame"]),
    ],
    targets: [
        // The rules of SET and Matchismo: value types, no I/O, no clock, no global RNG.
        .target(name: "SetGame", swiftSettings: optimizedInDebug + uncheckedInRelease),
        // Client lines to commands and server lines to text, and a client's view of a room built from
        // them (shared by the terminal client and the bots). Pure; no sockets.
        .target(
            name: "SetProtocol", dependencies: ["SetGame"],
            swiftSettings: optimizedInDebug + uncheckedInRelease),
        // SHA-1, for the WebSocket handshake, and PBKDF2-HMAC-SHA1, the slow salted hash name keys and room
        // passwords are stored as.
        .target(name: "SetDigest", swiftSettings: optimizedInDebug),
        // HTTP request heads, the WebSocket handshake and framer, the page, the TV table and the QR code of a
        // room's join link, as pure values over bytes; the pages' HTML, CSS and JavaScript are files in
        // Sources/SetWeb/Page, embedded at build time.
        .target(
            name: "SetWeb", dependencies: ["SetDigest", "SetQR"],
            resources: [
                .embedInCode("Page/page.html"), .embedInCode("Page/page.css"),
                .embedInCode("Page/replies.json"), .embedInCode("Page/defs.svg"),
                .embedInCode("Page/model.js"), .embedInCode("Page/cards.js"),
                .embedInCode("Page/connection.js"), .embedInCode("Page/invite.js"),
                .embedInCode("Page/table.js"),
                .embedInCode("Page/tv.html"), .embedInCode("Page/tv.css"),
                .embedInCode("Page/tvmodel.js"), .embedInCode("Page/tv.js"),
                .embedInCode("Page/replay.html"), .embedInCode("Page/replay.css"),
                .embedInCode("Page/replaymodel.js"), .embedInCode("Page/replay.js"),
            ]),
        // QR codes, ours: byte mode, level M, versions 1 to 10, drawn as terminal text or SVG. Pure.
        .target(name: "SetQR"),
        // Multicast DNS and DNS-SD without I/O: the DNS message codec, the responder's state machine
        // (`setd --announce`) and the finder's side (`set-cli --find`).
        .target(name: "SetDiscovery"),
        // The one thin layer over POSIX sockets, shared by the server and the clients.
        .target(name: "SetSocket", dependencies: ["CEpoll"], swiftSettings: uncheckedInRelease),
        // <sys/epoll.h>, which Glibc's Swift module leaves out; used by SetSocket only.
        .target(name: "CEpoll"),
        // The server's rules of play without I/O: commands in, effects out, a clock passed in.
        .target(
            name: "SetServerCore", dependencies: ["SetGame", "SetProtocol", "SetDigest"],
            exclude: ["README.md"], swiftSettings: optimizedInDebug + uncheckedInRelease),
        // Every connection from accept to close without I/O: sniff, HTTP, WebSocket, telnet, framing,
        // rate limits, output accounting, deadlines, per-address counts (the real client's behind a
        // trusted proxy: the PROXY protocol and forwarding fields), the journal gate. Bytes and times in,
        // actions out.
        .target(
            name: "SetEngine", dependencies: ["SetServerCore", "SetProtocol", "SetWeb"],
            swiftSettings: optimizedInDebug + uncheckedInRelease),
        // The shell around the engine: epoll, accept, timers, the journal file, the log.
        .target(
            name: "SetServer",
            dependencies: [
                "SetEngine", "SetServerCore", "SetProtocol", "SetSocket", "SetWeb", "SetQR", "SetDiscovery",
            ], swiftSettings: uncheckedInRelease),
        // The terminal client: its session, the renderer, the keyboard and the terminal.
        .target(name: "SetTerminal", dependencies: ["SetGame", "SetProtocol", "SetSocket", "SetDiscovery"]),
        // The protocol bots and the load tester that runs fleets of them.
        .target(name: "SetBots", dependencies: ["SetGame", "SetProtocol", "SetSocket"]),
        // Test helpers shared by the test targets and the fuzzers: the in-memory server, loopback
        // clients and test daemons, and reference oracles written from the rules and protocol.md.
        .target(
            name: "SetTestSupport",
            dependencies: [
                "SetEngine", "SetServerCore", "SetServer", "SetProtocol", "SetGame", "SetDigest", "SetWeb",
            ], swiftSettings: optimizedInDebug + uncheckedInRelease),
        .executableTarget(name: "setd", dependencies: ["SetServer", "SetServerCore", "SetSocket"]),
        .executableTarget(name: "set-cli", dependencies: ["SetTerminal"]),
        // The deterministic simulation of the whole server under faults (scripts/simulate.sh).
        .target(
            name: "SetSimulation",
            dependencies: ["SetEngine", "SetServerCore", "SetProtocol", "SetGame", "SetTestSupport"],
            swiftSettings: uncheckedInRelease),
        .executableTarget(name: "set-sim", dependencies: ["SetSimulation"]),
        .executableTarget(name: "set-bench", dependencies: ["SetBots"]),
        .executableTarget(name: "game-bench", dependencies: ["SetGame", "SetProtocol"]),
        .executableTarget(
            name: "journal-bench",
            dependencies: ["SetServerCore", "SetProtocol", "SetTestSupport", "SetDigest"]),
        // Every mode dealt and played millions of times: its figures, and its rules' promises checked.
        .executableTarget(name: "modes-sim", dependencies: ["SetGame", "SetProtocol", "SetTestSupport"]),
        // Swift Testing traits the test targets share (kept out of SetTestSupport, which executables link).
        .target(name: "SetTestTraits"),
        .testTarget(name: "SetGameTests", dependencies: ["SetGame", "SetTestSupport"]),
        .testTarget(name: "SetDigestTests", dependencies: ["SetDigest"]),
        .testTarget(
            name: "SetDiscoveryTests",
            dependencies: ["SetDiscovery", "SetSocket", "SetTestSupport", "SetTestTraits"]),
        .testTarget(name: "SetQRTests", dependencies: ["SetQR", "SetTestSupport"]),
        .testTarget(
            name: "SetWebTests",
            dependencies: ["SetWeb", "SetDigest", "SetQR", "SetTestSupport", "SetTestTraits"]),
        .testTarget(name: "SetProtocolTests", dependencies: ["SetProtocol", "SetTestSupport"]),
        .testTarget(
            name: "SetServerTests",
            dependencies: [
                "SetServer", "SetEngine", "SetServerCore", "SetSocket", "SetTestSupport", "SetProtocol",
                "SetGame", "SetWeb", "SetQR", "SetTestTraits",
            ]),
        .testTarget(
            name: "SetEngineTests",
            dependencies: [
                "SetEngine", "SetServerCore", "SetTestSupport", "SetProtocol", "SetGame", "SetWeb",
            ]),
        .testTarget(name: "SetSimulationTests", dependencies: ["SetSimulation", "SetServerCore"]),
        .testTarget(
            name: "SetServerCoreTests",
            dependencies: ["SetServerCore", "SetTestSupport", "SetProtocol", "SetGame"]),
        .testTarget(
            name: "SetClientTests",
            dependencies: [
                "SetTerminal", "SetBots", "SetProtocol", "SetGame", "SetSocket", "SetTestSupport",
                "SetDiscovery", "SetTestTraits",
            ]),
    ]
)
