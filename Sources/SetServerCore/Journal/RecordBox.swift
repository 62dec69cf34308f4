/// A journal record on the heap, made once where the core records it and handed on as it is: the core's
/// ``Effect/journal(_:)`` and the engine's action both hold this box, so a record is neither copied out
/// of one enum's box into another's nor allocated twice (a flat-out room journals every chat line).
public final class RecordBox: Equatable, Sendable {
    /// The record.
    public let record: JournalRecord

    /// Boxes `record`.
    public init(_ record: JournalRecord) { self.record = record }

    /// Equal when they hold equal records.
    public static func == (lhs: RecordBox, rhs: RecordBox) -> Bool {
        lhs === rhs || lhs.record == rhs.record
    }
}
