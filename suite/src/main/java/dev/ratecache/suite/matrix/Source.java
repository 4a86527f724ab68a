package dev.ratecache.suite.matrix;

import java.util.Arrays;

/**
 * The write-ups this project was built from (the seeds, numbered as their files are), each named
 * once: its title, author or project, year and a public link. The report's header, the reproduce
 * sections and the docs name them from here, so a reader can look each one up.
 *
 * <p>Only links checked to exist: the reference experiment's is the public copy of its repository
 * that could be checked, since its author's own copy could not.
 */
public enum Source {
    HAPROXY_CACHE("000", "HAProxy - PART II - Caching API with HAProxy", "Nexsol Technologies", 2024,
            "https://medium.com/@nexsol-tech/haproxy-part-ii-caching-api-with-haproxy-f831f8fc9e92"),
    REDIS_VS_NGINX("001", "Caching: Redis vs Nginx", "Dmitry Polyakovsky", 2020,
            "http://dmitrypol.github.io/redis/nginx/2020/09/14/cache-redis-nginx.html"),
    REDIS_BALANCER("002", "Grubby Hub Restaurant Profile Microservice", "Jose Velez, Grubby Hub", 2019,
            "https://github.com/GrubbyPlutos/Restaurant-Profile-Service"),
    FAST_ORIGIN("003", "What happens if you put HTTP server inside Postgres?", "Omnigres", 2023,
            "https://yrashk.com/blog/2023/02/16/what-happens-if-you-put-http-server-inside-postgres/"),
    REFERENCE("004", "nginx-spike: Experiments with Nginx (its test results)", "Tony Baines", 2014,
            "https://github.com/Cloudxtreme/nginx-spike/blob/master/test-results.md");

    private final String seed;
    private final String title;
    private final String author;
    private final int year;
    private final String link;

    Source(String seed, String title, String author, int year, String link) {
        this.seed = seed;
        this.title = title;
        this.author = author;
        this.year = year;
        this.link = link;
    }

    public String seed() { return seed; }
    public String title() { return title; }
    public String author() { return author; }
    public int year() { return year; }
    public String link() { return link; }

    /** The source of seed {@code seed} ("004" or "seed 004"). */
    public static Source ofSeed(String seed) {
        String number = seed.replaceFirst("^seed ", "").trim();
        return Arrays.stream(values()).filter(s -> s.seed.equals(number)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no seed " + seed));
    }

    /** "\"Title\" (Author, 2014)": the citation without its link, for the terminal. */
    public String cite() {
        return "\"" + title + "\" (" + author + ", " + year + ")";
    }

    /** The citation as Markdown, its title linking to the write-up. */
    public String markdown() {
        return "[" + title + "](" + link + ") (" + author + ", " + year + ")";
    }
}
