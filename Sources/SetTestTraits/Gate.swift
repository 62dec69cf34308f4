/// At most `width` holders at once; the others wait, without holding a thread, in the order they came.
actor Gate {
    private let width: Int
    private var holders = 0
    private var waiting: [CheckedContinuation<Void, Never>] = []

    init(width: Int) { self.width = width }

    func enter() async {
        guard holders == width else {
            holders += 1
            return
        }
        // The place is handed over by `leave`, which does not give it up in between.
        await withCheckedContinuation { waiting.append($0) }
    }

    func leave() {
        if waiting.isEmpty {
            holders -= 1
        } else {
            waiting.removeFirst().resume()
        }
    }
}
