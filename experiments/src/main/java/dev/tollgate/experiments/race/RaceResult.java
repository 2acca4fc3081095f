package dev.tollgate.experiments.race;

/** Admitted checks in one trial of one configuration. */
record RaceResult(Config config, Impl impl, int trial, int admitted) {}
