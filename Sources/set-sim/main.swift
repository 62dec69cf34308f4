import SetSimulation

SimulationCommand.main()
