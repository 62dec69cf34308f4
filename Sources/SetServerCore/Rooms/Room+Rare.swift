/// The state a room holds only while something rare is under way: who is ready and the countdown,
/// kicks, votes, rematch offers, the proposal last told, a pause. An idle room has none of it, and kept
/// inline it was about 110 bytes of every room (issue 28); boxed, a room without any holds 8.
final class RoomRareState {
    var readyNames: Set<String> = []
    var countdownStartedAt: Double?
    var countdownShown: Int = 0
    var isCountdownPending: Bool = false
    var isCountdownToResume: Bool = false
    var kicked: Set<String> = []
    var bans: [String: RoomSnapshot.KickBan] = [:]
    var rematchOffers: [String] = []
    var isRematchCheckDue: Bool = false
    var votes: Votes = [:]
    var isRecountDue: Bool = false
    var toldProposal: String?
    var pausedSeconds: Double = 0
    var pausedAt: Double?

    /// Whether every field is back to its starting value, so the box can go.
    var isEmpty: Bool {
        readyNames.isEmpty
            && countdownStartedAt == nil
            && countdownShown == 0
            && !isCountdownPending
            && !isCountdownToResume
            && kicked.isEmpty
            && bans.isEmpty
            && rematchOffers.isEmpty
            && !isRematchCheckDue
            && votes.isEmpty
            && !isRecountDue
            && toldProposal == nil
            && pausedSeconds == 0
            && pausedAt == nil
    }
}

extension Room {
    /// Changes a field of the box; `isEmptied` says the field's new value is its starting one (the test
    /// `RoomRareState.isEmpty` makes of it). A room without the box then stays without it: a box made
    /// for the change would be empty and dropped at once, and a restart sets ten fields back so (an
    /// allocation, fourteen comparisons and a release for each, at every deal).
    private func updateRare(isEmptied: Bool, _ change: (RoomRareState) -> Void) {
        guard rareState != nil || !isEmptied else { return }
        let box = rareState ?? RoomRareState()
        change(box)
        rareState = box.isEmpty ? nil : box
    }

    /// Who said `READY` while the room waits.
    var readyNames: Set<String> {
        get { rareState?.readyNames ?? [] }
        set { updateRare(isEmptied: newValue.isEmpty) { $0.readyNames = newValue } }
    }

    /// When the countdown began (uptime), while it runs.
    var countdownStartedAt: Double? {
        get { rareState?.countdownStartedAt ?? nil }
        set { updateRare(isEmptied: newValue == nil) { $0.countdownStartedAt = newValue } }
    }

    /// The last number the countdown showed.
    var countdownShown: Int {
        get { rareState?.countdownShown ?? 0 }
        set { updateRare(isEmptied: newValue == 0) { $0.countdownShown = newValue } }
    }

    /// Everyone ready at a moment the room was not told the time: the next tick starts the countdown.
    var isCountdownPending: Bool {
        get { rareState?.isCountdownPending ?? false }
        set { updateRare(isEmptied: !newValue) { $0.isCountdownPending = newValue } }
    }

    /// A countdown the journal says was under way (the clock it ran on is gone): the next tick starts it
    /// again from the top.
    var isCountdownToResume: Bool {
        get { rareState?.isCountdownToResume ?? false }
        set { updateRare(isEmptied: !newValue) { $0.isCountdownToResume = newValue } }
    }

    /// Names kicked by a journal from before kicks expired: they may not join again while the room exists.
    var kicked: Set<String> {
        get { rareState?.kicked ?? [] }
        set { updateRare(isEmptied: newValue.isEmpty) { $0.kicked = newValue } }
    }

    /// The kicks that hold: by kicked name, the name and address kept out and until when (Unix seconds).
    /// Expired ones stay until the host allows the name back or the room closes; they hold nobody.
    var bans: [String: RoomSnapshot.KickBan] {
        get { rareState?.bans ?? [:] }
        set { updateRare(isEmptied: newValue.isEmpty) { $0.bans = newValue } }
    }

    /// Who offered to play again (`REMATCH`) since the game ended, in the order they offered.
    var rematchOffers: [String] {
        get { rareState?.rematchOffers ?? [] }
        set { updateRare(isEmptied: newValue.isEmpty) { $0.rematchOffers = newValue } }
    }

    /// A player left or dropped while rematch offers stood: the next tick checks whether everyone still
    /// online has offered. Not game state: what it decides is journaled as the `game` record it writes.
    var isRematchCheckDue: Bool {
        get { rareState?.isRematchCheckDue ?? false }
        set { updateRare(isEmptied: !newValue) { $0.isRematchCheckDue = newValue } }
    }

    /// Players who asked for a new game during this one, in the order they voted.
    var votes: Votes {
        get { rareState?.votes ?? [:] }
        set { updateRare(isEmptied: newValue.isEmpty) { $0.votes = newValue } }
    }

    /// A player left or dropped while votes stood: the next tick counts them again (``recountVotes``).
    /// Not game state: what it decides is journaled as the `game` record it writes.
    var isRecountDue: Bool {
        get { rareState?.isRecountDue ?? false }
        set { updateRare(isEmptied: !newValue) { $0.isRecountDue = newValue } }
    }

    /// The last `PROPOSAL` line the room was told (`nil`: none stands as far as it knows), so that a
    /// change of the standing proposal is told once. Not game state: a restored room tells its next one.
    var toldProposal: String? {
        get { rareState?.toldProposal ?? nil }
        set { updateRare(isEmptied: newValue == nil) { $0.toldProposal = newValue } }
    }

    /// Seconds the current game spent paused before the pause under way (practice): the timed clock
    /// leaves them out.
    var pausedSeconds: Double {
        get { rareState?.pausedSeconds ?? 0 }
        set { updateRare(isEmptied: newValue == 0) { $0.pausedSeconds = newValue } }
    }

    /// Unix time the current pause began, while the game is paused.
    var pausedAt: Double? {
        get { rareState?.pausedAt ?? nil }
        set { updateRare(isEmptied: newValue == nil) { $0.pausedAt = newValue } }
    }
}
