/// A histogram of latencies with exact microseconds below 2.048 ms and 0.1 % buckets above, so that
/// percentiles of millions of samples cost a fixed 108 KiB instead of a sorted array.
///
/// Below ``exactLimit`` µs every microsecond has its own bucket, so percentiles there are exact to the
/// microsecond; above it each power of two is split into ``subBuckets`` equal buckets (HDR-style), so a
/// percentile is off by less than 1/1024 of its value. The maximum is kept exactly.
public struct LatencyHistogram: Sendable, Equatable {
    /// Latencies below this many microseconds are counted exactly.
    public static let exactLimit: UInt64 = 2048
    /// Buckets per power of two above ``exactLimit``; 1024 keeps the error below 0.1 %.
    static let subBuckets: UInt64 = 1024
    /// The largest latency a bucket holds, about 19 hours; longer ones count in the last bucket.
    static let ceiling: UInt64 = (1 << 36) - 1
    static let bucketCount = Int(exactLimit) + (36 - 11) * Int(subBuckets)

    /// Counts by bucket; empty until the first sample, so that idle histograms cost nothing.
    private var counts: [UInt32] = []
    /// How many samples were recorded.
    public private(set) var count = 0
    /// The largest sample, in nanoseconds.
    public private(set) var maximumNanoseconds: UInt64 = 0
    /// The sum of all samples, in nanoseconds, for the mean.
    public private(set) var totalNanoseconds: UInt64 = 0

    /// Creates an empty histogram.
    public init() {}

    /// Records one latency.
    public mutating func record(nanoseconds: UInt64) {
        if counts.isEmpty { counts = [UInt32](repeating: 0, count: Self.bucketCount) }
        counts[Self.bucket(forMicroseconds: nanoseconds / 1000)] &+= 1
        count += 1
        totalNanoseconds &+= nanoseconds
        if nanoseconds > maximumNanoseconds { maximumNanoseconds = nanoseconds }
    }

    /// Adds every sample of `other`.
    public mutating func merge(_ other: LatencyHistogram) {
        guard other.count > 0 else { return }
        if counts.isEmpty { counts = [UInt32](repeating: 0, count: Self.bucketCount) }
        for i in other.counts.indices where other.counts[i] != 0 { counts[i] &+= other.counts[i] }
        count += other.count
        totalNanoseconds &+= other.totalNanoseconds
        maximumNanoseconds = max(maximumNanoseconds, other.maximumNanoseconds)
    }

    /// The `percent` percentile in milliseconds by nearest rank (the smallest sample with at least
    /// `percent` % of the samples at or below it), or 0 without samples.
    public func percentile(_ percent: Double) -> Double {
        guard count > 0 else { return 0 }
        // The epsilon keeps 1.1 % of 100 samples at rank 110, not 111, despite binary fractions.
        let rank = max(1, Int((percent / 100 * Double(count) - 1e-9).rounded(.up)))
        var seen = 0
        for (i, n) in counts.enumerated() where n != 0 {
            seen += Int(n)
            if seen >= rank {
                let micros = min(Self.representative(ofBucket: i), maximumNanoseconds / 1000)
                return Double(micros) / 1000
            }
        }
        return maximumMilliseconds
    }

    /// The largest sample in milliseconds.
    public var maximumMilliseconds: Double { Double(maximumNanoseconds) / 1e6 }

    /// The mean in milliseconds, or 0 without samples.
    public var meanMilliseconds: Double { count == 0 ? 0 : Double(totalNanoseconds) / Double(count) / 1e6 }

    /// The bucket a latency of `micros` microseconds falls in.
    static func bucket(forMicroseconds micros: UInt64) -> Int {
        let value = min(micros, ceiling)
        if value < exactLimit { return Int(value) }
        let exponent = UInt64(63 - value.leadingZeroBitCount)  // 11 or more
        let shift = exponent - 10
        let sub = (value >> shift) - subBuckets
        return Int(exactLimit) + Int(exponent - 11) * Int(subBuckets) + Int(sub)
    }

    /// The value a bucket stands for: itself below the exact limit, else the middle of its range.
    static func representative(ofBucket index: Int) -> UInt64 {
        let i = UInt64(index)
        if i < exactLimit { return i }
        let exponent = (i - exactLimit) / subBuckets + 11
        let sub = (i - exactLimit) % subBuckets
        let shift = exponent - 10
        return ((subBuckets + sub) << shift) + (1 << shift) / 2
    }
}
