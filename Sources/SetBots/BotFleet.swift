import Dispatch
import Foundation

/// A run of `set-bench`: builds the bots, deals them over a few serial queues (a big room's bots end up
/// on all of them), watches the run from a control queue (progress, memory, when to stop), says goodbye
/// and reports.
///
/// Ownership: the mutable state below is touched only on ``control``; the shards own their bots.
public final class BotFleet: @unchecked Sendable {
    /// How long bots get to say goodbye (`QUIT` and the server's close) before sockets are just closed.
    static let goodbyeGrace: UInt64 = 3_000_000_000
    /// How often the control queue samples the shards and the server's memory.
    static let controlInterval = DispatchTimeInterval.milliseconds(100)
    /// Claim send times older than this are forgotten; their events have reached everyone.
    static let claimMemory: UInt64 = 10_000_000_000

    /// The options of the run.
    public let options: BenchOptions
    let config: BotConfig
    let seed: UInt64
    let shards: [BotShard]
    let rooms: [RoomLedger]
    private let control = DispatchQueue(label: "set-bench.control")
    private let progress: ProgressLine?

    private var timer: DispatchSourceTimer?
    private var startedAt: UInt64 = 0
    private var stoppingAt: UInt64?
    private var peakHeld = 0
    private var memory: BenchReport.ServerMemory?
    private var lastProgressAt: UInt64 = 0
    private var lastProgressSets = 0
    private var lastPrune: UInt64 = 0
    private var completion: (@Sendable (BenchReport) -> Void)?

    /// Prepares a run; nothing connects until ``run(completion:)``.
    public init(options: BenchOptions) {
        self.options = options
        let clockSeed =
            UInt64(Date().timeIntervalSince1970 * 1e6) ^ UInt64(ProcessInfo.processInfo.processIdentifier)
            << 40
        let seed = options.seed ?? clockSeed
        let config = BotConfig(options: options, tag: BotConfig.makeTag(from: seed))
        let shards = (0..<min(options.queues, options.bots)).map {
            BotShard(label: "set-bench.bots.\($0)", config: config)
        }
        let rooms = (0..<options.rooms).map { RoomLedger(name: config.roomName($0)) }
        self.seed = seed
        self.config = config
        self.rooms = rooms
        self.shards = shards
        progress = options.isQuiet ? nil : ProgressLine()
    }

    /// Runs the fleet and calls `completion` with the report once every bot has said goodbye.
    public func run(completion: @escaping @Sendable (BenchReport) -> Void) {
        control.async {
            self.completion = completion
            self.start()
        }
    }

    /// Runs the fleet and returns its report.
    public func run() async -> BenchReport {
        await withCheckedContinuation { continuation in
            run { continuation.resume(returning: $0) }
        }
    }

    /// Runs the fleet, blocking the calling thread (for `main`), and returns its report.
    public func runBlocking() -> BenchReport {
        let done = DispatchSemaphore(value: 0)
        let box = ReportBox()
        run { report in
            box.report = report
            done.signal()
        }
        done.wait()
        return box.report!
    }

    private func start() {
        let now = BenchClock.now()
        startedAt = now
        if let pid = options.serverPID, let kib = ProcessMemory.residentKiB(of: pid) {
            memory = BenchReport.ServerMemory(
                baselineKiB: kib, peakKiB: kib, atPeakConnectionsKiB: kib, connectionsAtPeak: 0)
        }
        for b in 0..<options.bots {
            let r = b % options.rooms
            let shard = shards[b % shards.count]
            let connectAt = now + UInt64(Double(b) / options.connectRate * 1e9)
            let session = BotSession(
                index: b, config: config, room: rooms[r], stats: shard.stats,
                seed: seed &+ UInt64(b) &* 0x9E37_79B9_7F4A_7C15, connectAt: connectAt)
            shard.queue.sync { shard.add(session) }
        }
        for shard in shards { shard.start() }
        let timer = DispatchSource.makeTimerSource(queue: control)
        timer.schedule(deadline: .now() + Self.controlInterval, repeating: Self.controlInterval)
        timer.setEventHandler { [unowned self] in self.controlTick() }
        timer.resume()
        self.timer = timer
    }

    private func gather(histograms: Bool) -> (stats: BenchStats, games: Int) {
        var total = BenchStats()
        for shard in shards {
            total.merge(shard.queue.sync { histograms ? shard.stats.value : shard.stats.value.counters })
        }
        return (total, rooms.reduce(0) { $0 + $1.gamesFinished })
    }

    private func controlTick() {
        let now = BenchClock.now()
        let elapsed = Double(now - startedAt) / 1e9
        let wantsProgress = progress != nil && now - lastProgressAt >= 1_000_000_000
        let (stats, games) = gather(histograms: wantsProgress)
        peakHeld = max(peakHeld, stats.connected)
        if now - lastPrune > 1_000_000_000 {
            lastPrune = now
            let cutoff = now > Self.claimMemory ? now - Self.claimMemory : 0
            for room in rooms { room.prune(before: cutoff) }
        }
        sampleMemory(connected: stats.connected)
        if wantsProgress, let progress {
            let rate = Double(stats.sets - lastProgressSets) / max(Double(now - lastProgressAt) / 1e9, 0.001)
            lastProgressAt = now
            lastProgressSets = stats.sets
            progress.update(
                String(
                    format:
                        "[%6.1fs] bots %d/%d connected  sets/s %.1f  events %d  p99 claim %.3f ms fanout %.3f ms"
                        + "  errors %d",
                    elapsed, stats.connected, options.bots, rate, stats.events,
                    stats.claimLatency.percentile(99),
                    stats.fanoutLatency.percentile(99),
                    stats.protocolErrors + stats.unexpectedErrors + stats.disconnects + stats.connectFailures)
            )
        }
        if let stoppingAt {
            let finished = shards.allSatisfy { shard in shard.queue.sync { shard.isFinished } }
            if finished || now - stoppingAt > Self.goodbyeGrace { finish() }
            return
        }
        let isDue: Bool
        switch options.stop {
        case .duration(let seconds): isDue = elapsed >= seconds
        case .games(let n): isDue = games >= n
        }
        if isDue || elapsed >= options.timeLimit {
            stoppingAt = now
            for shard in shards { shard.stop() }
        }
    }

    private func sampleMemory(connected: Int) {
        guard var m = memory, let pid = options.serverPID, let kib = ProcessMemory.residentKiB(of: pid) else {
            return
        }
        m.peakKiB = max(m.peakKiB, kib)
        // The latest sample at the most connections: memory settles a moment after the last connect.
        if connected > 0, connected >= m.connectionsAtPeak {
            m.atPeakConnectionsKiB = kib
            m.connectionsAtPeak = connected
        }
        memory = m
    }

    private func finish() {
        timer?.cancel()
        timer = nil
        for shard in shards { shard.queue.sync { shard.tearDown() } }
        let (stats, games) = gather(histograms: true)
        let seconds = Double((stoppingAt ?? BenchClock.now()) - startedAt) / 1e9
        let report = BenchReport(
            bots: options.bots, rooms: options.rooms, game: options.game.rawValue, seconds: seconds,
            connectionsHeld: peakHeld, gamesFinished: games, stats: stats, serverMemory: memory,
            benchPeakKiB: ProcessMemory.peakKiB(),
            noSetsReason: BenchReport.noSetsReason(stats: stats, options: options, seconds: seconds))
        progress?.finish()
        completion?(report)
        completion = nil
    }
}

/// Carries the report from the control queue to the thread waiting in ``BotFleet/runBlocking()``; the
/// semaphore orders the write before the read.
private final class ReportBox: @unchecked Sendable {
    var report: BenchReport?
}

/// The live progress line on stderr: rewritten in place on a terminal, a line every few seconds in a log.
final class ProgressLine: @unchecked Sendable {
    private let isTerminal: Bool
    private var lastLine: UInt64 = 0

    init() {
        let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/2")) ?? ""
        isTerminal = target.hasPrefix("/dev/pts/") || target.hasPrefix("/dev/tty")
    }

    func update(_ text: String) {
        if isTerminal {
            write("\r" + text + "\u{1B}[K")
        } else {
            let now = BenchClock.now()
            guard now - lastLine >= 5_000_000_000 else { return }
            lastLine = now
            write(text + "\n")
        }
    }

    func finish() {
        if isTerminal { write("\n") }
    }

    private func write(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }
}
