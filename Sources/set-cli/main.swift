import SetTerminal

TerminalClient.main()
