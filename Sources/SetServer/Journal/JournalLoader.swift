import SetServerCore

/// Reads the journal file at start-up (and for `--check-journal`): an unreadable file is an error, a
/// missing one an empty journal.
enum JournalLoader {
    static func load(_ path: String) throws -> JournalReader.Contents {
        guard let bytes = try FileSystem.read(path) else { return JournalReader.Contents() }
        return try JournalReader.parse(bytes, path: path)
    }
}
