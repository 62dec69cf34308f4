import SetClient

TerminalClient.main()
