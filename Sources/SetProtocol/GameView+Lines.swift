extension GameView {
    /// Applies a server line given as text, as it came off the wire; returns whether it changed the view.
    @discardableResult
    public mutating func apply(text: String) -> Bool {
        apply(ServerLine(parsing: text))
    }

    /// A view built from server lines, for tests and tools.
    public init(lines: [String]) {
        self.init()
        for line in lines { apply(text: line) }
    }
}
