// How each mode plays, by simulation, and its rules' promises checked on millions of deals: see
// ModesSimulation and scripts/modes-sim.sh.
ModesSimulation.main(CommandLine.arguments)
