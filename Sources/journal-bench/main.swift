// Restore time and journal size, before and after snapshots: see JournalBench.
JournalBench.main(CommandLine.arguments)
