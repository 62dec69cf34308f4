import SetGame
import Testing

@testable import SetBots

extension Bots {
    @Suite struct LatencyHistogramTests {
        /// The nearest-rank percentile of sorted values: the smallest with at least `p` % at or below it.
        func nearestRank(_ sorted: [UInt64], _ p: Double) -> UInt64 {
            let rank = max(1, Int((p / 100 * Double(sorted.count) - 1e-9).rounded(.up)))
            return sorted[rank - 1]
        }

        @Test func emptyHistogramReportsZero() {
            let h = LatencyHistogram()
            #expect(h.count == 0)
            #expect(h.percentile(50) == 0)
            #expect(h.percentile(99) == 0)
            #expect(h.maximumMilliseconds == 0)
        }

        @Test func percentilesBelowTwoMillisecondsAreExact() {
            var generator = SeededGenerator(seed: 7)
            var h = LatencyHistogram()
            var micros: [UInt64] = []
            for _ in 0..<10_007 {
                let us = UInt64(generator.next(below: 2048))
                micros.append(us)
                h.record(nanoseconds: us * 1000 + UInt64(generator.next(below: 1000)))
            }
            micros.sort()
            for p in [1.0, 10, 50, 90, 99, 99.9, 100] {
                #expect(h.percentile(p) == Double(nearestRank(micros, p)) / 1000, "p\(p)")
            }
            #expect(h.count == 10_007)
        }

        @Test func smallSampleCountsUseNearestRank() {
            var h = LatencyHistogram()
            for ms in [1, 2, 3, 4, 5, 6, 7, 8, 9, 10] as [UInt64] { h.record(nanoseconds: ms * 100_000) }
            #expect(h.percentile(50) == 0.5)
            #expect(h.percentile(90) == 0.9)
            #expect(h.percentile(99) == 1.0)
            #expect(h.percentile(100) == 1.0)
            #expect(h.maximumMilliseconds == 1.0)
            #expect(abs(h.meanMilliseconds - 0.55) < 1e-9)
        }

        @Test func largeLatenciesAreWithinATenthOfAPercent() {
            var generator = SeededGenerator(seed: 11)
            var h = LatencyHistogram()
            var micros: [UInt64] = []
            for _ in 0..<5000 {
                let us = 2048 + UInt64(generator.next(below: 5_000_000))  // 2 ms to 5 s
                micros.append(us)
                h.record(nanoseconds: us * 1000)
            }
            micros.sort()
            for p in [50.0, 90, 99] {
                let exact = Double(nearestRank(micros, p)) / 1000
                #expect(abs(h.percentile(p) - exact) / exact < 0.001, "p\(p): \(h.percentile(p)) vs \(exact)")
            }
            #expect(h.maximumMilliseconds == Double(micros.last!) / 1000)
            #expect(h.percentile(100) <= h.maximumMilliseconds)
        }

        @Test func bucketsCoverTheRangeInOrder() {
            var previous = -1
            // Exact below 2048 µs; from there two microseconds share a bucket, then four, and so on.
            #expect(LatencyHistogram.bucket(forMicroseconds: 2047) == 2047)
            #expect(
                LatencyHistogram.bucket(forMicroseconds: 2048)
                    == LatencyHistogram.bucket(forMicroseconds: 2049))
            #expect(LatencyHistogram.bucket(forMicroseconds: 2050) == 2049)
            for us in [0, 1, 2047, 2048, 2049, 4095, 4096, 1 << 20, (1 << 36) - 1, 1 << 40] as [UInt64] {
                let bucket = LatencyHistogram.bucket(forMicroseconds: us)
                #expect(bucket >= previous, "\(us)")
                #expect(bucket < LatencyHistogram.bucketCount)
                previous = bucket
            }
            for bucket in [0, 100, 2047, 2048, 3000, LatencyHistogram.bucketCount - 1] {
                #expect(
                    LatencyHistogram.bucket(
                        forMicroseconds: LatencyHistogram.representative(ofBucket: bucket)) == bucket)
            }
        }

        @Test func mergingEqualsRecordingEverything() {
            var a = LatencyHistogram()
            var b = LatencyHistogram()
            var all = LatencyHistogram()
            for i in 0..<1000 as Range<UInt64> {
                let ns = i * 7919 % 3_000_000
                if i % 3 == 0 { a.record(nanoseconds: ns) } else { b.record(nanoseconds: ns) }
                all.record(nanoseconds: ns)
            }
            a.merge(b)
            #expect(a == all)
            var empty = LatencyHistogram()
            empty.merge(LatencyHistogram())
            #expect(empty.count == 0)
        }
    }
}
