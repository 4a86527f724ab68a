package dev.ratecache.model;

/**
 * One station's figures in a solved network.
 *
 * @param name          the station's name
 * @param residenceSec  seconds a request spends there in all, queueing included
 *                      (R<sub>k</sub>); infinite when an open load saturates it
 * @param utilisation   busy share of each server, X·D / servers (the utilisation law); for a
 *                      delay station, X·D, its mean number of requests in service (not a share)
 * @param queueLength   mean requests there, waiting or in service (Q<sub>k</sub> = X·R<sub>k</sub>,
 *                      Little's law); infinite when an open load saturates it
 */
public record StationLoad(String name, double residenceSec, double utilisation, double queueLength) {
}
