package dev.ratecache.suite.peak;

/**
 * A load client's run (wrk, s_time, h2load) and the CPU the client itself spent on it: the load
 * generator's share of the machine, which the shared-CPU model counts with the servers'.
 */
public record Counted<T>(T result, double cpuSeconds) {}
