import SetProtocol
import SetServerCore
import SetTestSupport
import Testing

/// Name keys are kept as slow salted hashes, and claims made by an older setd still work.
@Suite struct NameKeyTests {
    /// The records a setd from before PBKDF2 wrote for a claimed name: `name-claim <name> <salt> <digest>`,
    /// the digest SHA-1 of salt + key (here `k3y`).
    private static let legacyJournal: [JournalRecord] = [
        .header(version: JournalRecord.formatVersion),
        .nameClaim(
            name: "dan", salt: "00112233445566778899aabbccddeeff",
            digest: "a0e4456e3c4f120486087db20adad93714d1599b"),
    ]

    @Test func aKeyIsStoredAsSaltedPBKDF2AndNeverInClear() throws {
        let server = EmbeddedServer()
        #expect(try server.connect("ann").request("HELLO ann key=s3cret").isOK("HELLO ann"))
        #expect(try server.connect("bob").request("HELLO bob key=s3cret").isOK("HELLO bob"))
        let keys = server.journal.compactMap { record -> String? in
            guard case .nameKey(_, let secret, _, _, _) = record else { return nil }
            return secret
        }
        #expect(keys.count == 2)
        for key in keys {
            let parts = key.split(separator: "$")
            #expect(parts.count == 4 && parts[0] == "pbkdf2-sha1" && parts[1] == "10000", "\(key)")
            #expect(parts.count == 4 && parts[2].count == 32, "a 16-byte salt: \(key)")
        }
        #expect(keys[0] != keys[1], "the same key under two salts hashes differently")
        #expect(!server.journal.contains { $0.text.contains("s3cret") })
    }

    @Test func aClaimFromAnOlderJournalStillTakesItsKeyAndIsRehashed() throws {
        let old = EmbeddedServer()
        let server = try old.restarted(from: Self.legacyJournal)
        #expect(try server.connect("x").request("HELLO dan").error == .denied, "still claimed")
        #expect(try server.connect("y").request("HELLO dan key=nope").error == .denied)
        let dan = try server.connect("dan")
        #expect(try dan.request("HELLO dan key=k3y").isOK("HELLO dan"), "the old key still works")
        // Saying it stored it again the new way; the old digest is gone from the state.
        let rehashed = server.journal.last { if case .nameKey = $0 { true } else { false } }
        #expect(rehashed?.text.hasPrefix("name-key dan pbkdf2-sha1$10000$") == true)
        #expect(!server.core.snapshotRecords().contains { $0.text.contains("a0e4456e") })
        _ = try dan.request("QUIT")
        let later = try server.restarted(after: 60)
        #expect(try later.connect("z").request("HELLO dan key=nope").error == .denied)
        #expect(try later.connect("dan").request("HELLO dan key=k3y").isOK("HELLO dan"))
    }

    @Test func anOlderClaimNotUsedYetSurvivesCompaction() throws {
        let server = try EmbeddedServer().restarted(from: Self.legacyJournal)
        // The compacted journal keeps the old digest (the key is not known until it is said) …
        let compacted = server.core.snapshotRecords()
        #expect(
            compacted.contains {
                $0.text.hasPrefix("name-key dan sha1$00112233445566778899aabbccddeeff$a0e4")
            })
        // … and restores from it.
        let again = try server.restarted(from: try ReplayCheck.reread(compacted), after: 5)
        #expect(try again.connect("y").request("HELLO dan key=nope").error == .denied)
        #expect(try again.connect("dan").request("HELLO dan key=k3y").isOK("HELLO dan"))
    }
}
