import Foundation

/// `RECORD`'s JSON (protocol.md, "RECORD") as a few lines for the event log: the terminal shows who took
/// which set and when, not the raw JSON. Read with `JSONSerialization` rather than the server's type, so
/// the client depends only on the documented field names.
enum GameRecordSummary {
    /// The lines to show for a record, or one line saying it could not be read.
    static func lines(ofJSON json: String) -> [String] {
        guard let object = try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any],
            let id = object["id"] as? String, let room = object["room"] as? String
        else { return ["the server sent a record this client cannot read"] }
        var lines = ["game \(id) in \(room):"]
        for case let event as [String: Any] in object["events"] as? [Any] ?? [] {
            guard event["type"] as? String == "claim", let name = event["name"] as? String,
                let ms = event["ms"] as? Int
            else { continue }
            let cards = (event["cards"] as? [String] ?? []).joined(separator: " ")
            let result = event["result"] as? String ?? "?"
            let time = String(format: "%d:%04.1f", ms / 60_000, Double(ms % 60_000) / 1000)
            lines.append("  \(time) \(name) \(result) \(cards)")
        }
        for case let row as [String: Any] in object["sheet"] as? [Any] ?? [] {
            let name = row["name"] as? String ?? "?"
            lines.append("  \(name): \(row["score"] as? Int ?? 0) points, \(row["sets"] as? Int ?? 0) sets")
        }
        return lines
    }
}
