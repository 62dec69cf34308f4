/// The input line: the text being typed, the cursor, and what was entered before (↑ and ↓ recall it).
public struct LineEditor: Equatable, Sendable {
    /// The most the line holds, in UTF-8 bytes: what fits in one protocol line with its verb.
    public static let maximumBytes = 1000
    /// How many entered lines ↑ can bring back.
    public static let historyLimit = 100

    /// The characters typed.
    public private(set) var characters: [Character] = []
    /// Where the next character goes, `0...characters.count`.
    public private(set) var cursor = 0
    /// Lines entered before, oldest first.
    public private(set) var history: [String] = []
    private var recalled: Int?
    private var draft: [Character] = []

    /// Creates an empty line.
    public init() {}

    /// The text typed.
    public var text: String { String(characters) }

    /// Whether nothing is typed.
    public var isEmpty: Bool { characters.isEmpty }

    /// Inserts a character at the cursor, unless the line is full.
    public mutating func insert(_ character: Character) {
        guard text.utf8.count + character.utf8.count <= Self.maximumBytes else { return }
        characters.insert(character, at: cursor)
        cursor += 1
    }

    /// Deletes the character before the cursor.
    public mutating func deleteBackward() {
        guard cursor > 0 else { return }
        cursor -= 1
        characters.remove(at: cursor)
    }

    /// Deletes the character under the cursor.
    public mutating func deleteForward() {
        guard cursor < characters.count else { return }
        characters.remove(at: cursor)
    }

    /// Deletes the word before the cursor (Ctrl-W).
    public mutating func deleteWordBackward() {
        while cursor > 0, characters[cursor - 1] == " " { deleteBackward() }
        while cursor > 0, characters[cursor - 1] != " " { deleteBackward() }
    }

    /// Deletes from the cursor to the end (Ctrl-K).
    public mutating func deleteToEnd() {
        characters.removeSubrange(cursor...)
    }

    /// Replaces the whole line with `text`, cursor at the end (the selection moved with its cards).
    public mutating func replace(with text: String) {
        characters = Array(text)
        cursor = characters.count
        recalled = nil
    }

    /// Empties the line (Ctrl-U, Esc).
    public mutating func clear() {
        characters = []
        cursor = 0
        recalled = nil
    }

    /// Moves the cursor one character left.
    public mutating func moveLeft() { cursor = max(0, cursor - 1) }
    /// Moves the cursor one character right.
    public mutating func moveRight() { cursor = min(characters.count, cursor + 1) }
    /// Moves the cursor to the start.
    public mutating func moveToStart() { cursor = 0 }
    /// Moves the cursor to the end.
    public mutating func moveToEnd() { cursor = characters.count }

    /// Replaces the line with the previous entered line.
    public mutating func recallPrevious() {
        guard !history.isEmpty else { return }
        if recalled == nil { draft = characters }
        let index = max(0, (recalled ?? history.count) - 1)
        recalled = index
        characters = Array(history[index])
        cursor = characters.count
    }

    /// Replaces the line with the next entered line, or what was being typed before ↑.
    public mutating func recallNext() {
        guard let index = recalled else { return }
        if index + 1 < history.count {
            recalled = index + 1
            characters = Array(history[index + 1])
        } else {
            recalled = nil
            characters = draft
        }
        cursor = characters.count
    }

    /// Returns the line and starts a new one, remembering it for ↑.
    public mutating func submit() -> String {
        let line = text
        if !line.trimmingCharacters(in: " ").isEmpty, history.last != line {
            history.append(line)
            if history.count > Self.historyLimit { history.removeFirst() }
        }
        clear()
        return line
    }
}

extension String {
    /// The string without leading and trailing `character`s.
    func trimmingCharacters(in character: Character) -> String {
        guard let first = firstIndex(where: { $0 != character }),
            let last = lastIndex(where: { $0 != character })
        else { return "" }
        return String(self[first...last])
    }
}
