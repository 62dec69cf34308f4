import SetServer

DaemonCommand.main(CommandLine.arguments)
