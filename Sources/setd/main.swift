// The setd daemon: everything it does is in `Daemon`, so that no handler is written in top-level code
// (which would make it main-actor isolated).
Daemon.main(CommandLine.arguments)
