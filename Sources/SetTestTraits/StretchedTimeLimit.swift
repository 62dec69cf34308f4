import Testing

extension Trait where Self == TimeLimitTrait {
    /// A time limit of `minutes`, ten times as long when the tests stretch their deadlines
    /// (`SETD_TEST_TIME_SCALE`, as under ThreadSanitizer).
    ///
    /// There ``OwnThread`` steps aside and the tests that wait run on the pool's two threads, two at a
    /// time, and a test's clock runs while it waits for one of them: in two CI runs under TSan every
    /// test of one suite (`HostileServerTests` once, `EventLoopTests` once, trivial tests among them) was
    /// reported over its minute at the same moment, some 400 s into the run, though each takes seconds
    /// once it runs. The limit still ends a test that hangs, later.
    public static func stretchedTimeLimit(minutes: Int) -> Self {
        .timeLimit(.minutes(OwnThread.isOff ? minutes * 10 : minutes))
    }
}
