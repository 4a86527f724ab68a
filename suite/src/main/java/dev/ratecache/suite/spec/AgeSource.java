package dev.ratecache.suite.spec;

import dev.ratecache.suite.Repo;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * What counts the Age the edge sends on an answer from its cache (RFC 9111 section 5.1):
 * {@code native}, the variable {@code $upstream_cache_age} of nginx/modules/age, which
 * run-tests.sh builds against Debian's nginx; or {@code njs}, nginx/njs/age.js, where it cannot
 * be built. {@code auto} is native when the module is built, else njs.
 */
public enum AgeSource {
    AUTO("auto"),
    NATIVE("native"),
    NJS("njs");

    /**
     * Where run-tests.sh builds nginx/modules/age ({@code $upstream_cache_age}) against Debian's nginx,
     * under the checkout: it is built here, not installed.
     */
    public static final String MODULE = ".tools/nginx-modules/ngx_http_upstream_cache_age_module.so";

    private final String flag;

    AgeSource(String flag) {
        this.flag = flag;
    }

    /** The built module's absolute path; null outside a checkout, where none was built. */
    public static Path module() {
        try {
            return Repo.root().resolve(MODULE);
        } catch (Repo.NotFound e) {
            return null;
        }
    }

    /** {@code this}, with auto resolved by whether {@code module} (the built module) is there. */
    public AgeSource resolved(Path module) {
        if (this != AUTO) {
            return this;
        }
        return module != null && Files.isRegularFile(module) ? NATIVE : NJS;
    }

    @Override
    public String toString() {
        return flag;
    }
}
