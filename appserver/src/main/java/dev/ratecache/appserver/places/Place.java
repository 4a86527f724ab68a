package dev.ratecache.appserver.places;

/** One row of the places table, as /places sends it. */
public record Place(String code, String town, String region) {
}
