import Foundation
import Testing

@testable import SetBots

extension Bots {
    @Suite struct BenchReportTests {
        func sampleReport() -> BenchReport {
            var stats = BenchStats()
            stats.claims = 120
            stats.sets = 100
            stats.events = 4000
            stats.connects = 12
            stats.errorCodes = ["STALE": 15, "NOTSET": 5]
            for ms in 1...100 as ClosedRange<UInt64> {
                stats.claimLatency.record(nanoseconds: ms * 10_000)
                stats.fanoutLatency.record(nanoseconds: ms * 20_000)
            }
            stats.recordProtocolError("a \"quoted\"\nline")
            return BenchReport(
                bots: 10, rooms: 2, game: "set", seconds: 10, connectionsHeld: 10, gamesFinished: 3,
                stats: stats,
                serverMemory: BenchReport.ServerMemory(
                    baselineKiB: 1000, peakKiB: 1200, atPeakConnectionsKiB: 1100, connectionsAtPeak: 10))
        }

        @Test func jsonHasTheDocumentedShape() throws {
            let text = sampleReport().json
            #expect(!text.contains("\n"), "one line")
            let object = try #require(
                try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
            for key in [
                "bots", "rooms", "sets", "claims", "claims_per_s", "events_per_s", "claim_ms", "fanout_ms",
                "errors",
            ] {
                #expect(object[key] != nil, "\(key)")
            }
            #expect(object["bots"] as? Int == 10)
            #expect(object["rooms"] as? Int == 2)
            #expect(object["sets"] as? Int == 100)
            #expect(object["claims"] as? Int == 120)
            #expect(object["claims_per_s"] as? Double == 12)
            #expect(object["events_per_s"] as? Double == 400)
            let claim = try #require(object["claim_ms"] as? [String: Any])
            #expect(Set(claim.keys).isSuperset(of: ["p50", "p90", "p99", "max"]))
            #expect(claim["p50"] as? Double == 0.5)
            #expect(claim["p90"] as? Double == 0.9)
            #expect(claim["p99"] as? Double == 0.99)
            #expect(claim["max"] as? Double == 1)
            let fanout = try #require(object["fanout_ms"] as? [String: Any])
            #expect(fanout["p99"] as? Double == 1.98)
            let errors = try #require(object["errors"] as? [String: Int])
            #expect(errors == ["STALE": 15, "NOTSET": 5])
            #expect(object["protocol_errors"] as? Int == 1)
            #expect(object["protocol_error_samples"] as? [String] == ["a \"quoted\"\nline"])
            let memory = try #require(object["server_rss"] as? [String: Any])
            #expect(memory["bytes_per_connection"] as? Int == 10240)
            #expect(object["clean"] as? Bool == false)
        }

        @Test("The by-kind counts say what they count, in the text and in the JSON report")
        func byKindCountsAreLabelled() throws {
            var report = sampleReport()
            report.stats.eventCounts[0] = 7  // SET
            report.stats.eventCounts[3] = 21  // PLAYER
            let line = try #require(report.text.split(separator: "\n").first { $0.contains("lines by kind") })
            #expect(line.contains("SET 7, PLAYER 21"))
            #expect(line.contains("not a reply's OK/ERR") && line.contains("by first word"))
            let object = try #require(
                try JSONSerialization.jsonObject(with: Data(report.json.utf8)) as? [String: Any])
            #expect(object["events_by_kind"] as? [String: Int] == ["SET": 7, "PLAYER": 21])
            #expect(object["events_by_kind_counts"] as? String == BenchReport.eventsByKindMeaning)
        }

        @Test func textNamesEveryFigure() {
            let text = sampleReport().text
            for words in [
                "connections held", "games finished", "sets taken", "claims", "events delivered", "p99",
                "STALE 15", "protocol errors   1", "NOT CLEAN", "10240 bytes each",
            ] {
                #expect(text.contains(words), "\(words)")
            }
        }

        @Test("A run whose bots took no set is not clean, and says why in words a host can act on")
        func noSetsIsNotClean() throws {
            var options = try BenchOptions.parse(["--bots", "3", "--room", "botnight", "--duration", "30"])
            var stats = BenchStats()
            stats.joins = 3
            stats.waitingRooms = 3
            stats.readies = 3
            let waiting = try #require(BenchReport.noSetsReason(stats: stats, options: options, seconds: 30))
            #expect(waiting.contains("room botnight waited for its players for the whole 30 s"), "\(waiting)")
            options.waitsForHost = true
            let host = try #require(BenchReport.noSetsReason(stats: stats, options: options, seconds: 30))
            #expect(host.contains("waited for its host to START it (--wait-for-host)"), "\(host)")
            stats.dealtBoards = 5
            let slow = try #require(BenchReport.noSetsReason(stats: stats, options: options, seconds: 30))
            #expect(slow.contains("none claimed in 30 s (--think 2000-8000 ms"), "\(slow)")
            stats.sets = 1
            #expect(BenchReport.noSetsReason(stats: stats, options: options, seconds: 30) == nil)
            options.isIdle = true
            #expect(BenchReport.noSetsReason(stats: BenchStats(), options: options, seconds: 30) == nil)
            let report = BenchReport(
                bots: 3, rooms: 1, game: "set", seconds: 30, connectionsHeld: 3, gamesFinished: 0,
                stats: stats,
                noSetsReason: waiting)
            #expect(!report.isClean && report.text.contains("NOT CLEAN: \(waiting)"))
            let object = try #require(
                try JSONSerialization.jsonObject(with: Data(report.json.utf8)) as? [String: Any])
            #expect(object["no_sets_reason"] as? String == waiting && object["clean"] as? Bool == false)
        }

        @Test func anEmptyRunIsCleanAndHasZeroLatencies() throws {
            let report = BenchReport(
                bots: 1, rooms: 1, game: "set", seconds: 0, connectionsHeld: 0, gamesFinished: 0,
                stats: BenchStats())
            #expect(report.isClean)
            let object = try #require(
                try JSONSerialization.jsonObject(with: Data(report.json.utf8)) as? [String: Any])
            #expect((object["claim_ms"] as? [String: Any])?["p99"] as? Double == 0)
            #expect(object["claims_per_s"] as? Double == 0)
            #expect(object["errors"] as? [String: Int] == [:])
            #expect(object["server_rss"] == nil)
        }

        @Test func statsMergeAddsUp() {
            var a = BenchStats()
            a.sets = 2
            a.errorCodes = ["STALE": 1]
            a.claimLatency.record(nanoseconds: 5_000)
            var b = BenchStats()
            b.sets = 3
            b.errorCodes = ["STALE": 2, "NOTSET": 1]
            b.claimLatency.record(nanoseconds: 7_000)
            a.merge(b)
            #expect(a.sets == 5)
            #expect(a.errorCodes == ["STALE": 3, "NOTSET": 1])
            #expect(a.claimLatency.count == 2)
            #expect(a.counters.claimLatency.count == 0)
        }
    }
}
