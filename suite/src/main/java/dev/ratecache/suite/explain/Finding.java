package dev.ratecache.suite.explain;

/**
 * A pitfall found in the config: where it is, what it does, and the fix.
 *
 * @param kind  a short name of the rule, stable for tools reading explain.json (e.g. "real-ip")
 * @param where file:line of the directive it is about
 * @param what  what it does to clients, in words
 * @param fix   the change that removes it
 */
public record Finding(String kind, String where, String what, String fix) {
}
