package dev.ratecache.suite.switches;

import dev.ratecache.suite.spec.TlsFiles;
import java.nio.file.Path;
import java.util.Map;
import picocli.CommandLine.Option;

/**
 * TLS where the clients connect: the certificate, HTTP/2, HSTS and a port that redirects to
 * https. A group of {@link StackSwitches}, which checks them all in one place.
 */
final class TlsSwitches implements WholeNumber.Flags {
    @Option(names = "--tls", negatable = true, fallbackValue = "true",
            description = "Terminate TLS (1.2 and 1.3) where clients connect: the front end, or the balancer with --edges"
                    + " N > 1. Without --tls-cert and --tls-key the suite makes a throwaway CA and a certificate for"
                    + " 127.0.0.1 and localhost in the run folder (tls/ca.pem is the CA to trust). Default: off.")
    boolean tls = false;

    @Option(names = "--tls-cert", paramLabel = "FILE",
            description = "With --tls, your own certificate (PEM, the server's first, then any intermediates).")
    Path tlsCert;

    @Option(names = "--tls-key", paramLabel = "FILE",
            description = "With --tls, the private key of --tls-cert (PEM, unencrypted).")
    Path tlsKey;

    @Option(names = "--http2", negatable = true, fallbackValue = "true",
            description = "With --tls, HTTP/2 beside HTTP/1.1 on the TLS port, chosen by ALPN (--no-http2 keeps only"
                    + " HTTP/1.1). Default: on.")
    boolean http2 = true;

    @Option(names = "--hsts", negatable = true, fallbackValue = "true",
            description = "With --tls, send Strict-Transport-Security (a year). Off by default: a browser that saw it"
                    + " refuses the host over http, and with a throwaway certificate, at all, for that year.")
    boolean hsts = false;

    @Option(names = "--http-port", paramLabel = "PORT",
            description = "With --tls, a cleartext port that answers every request with a redirect (301) to https on"
                    + " the front port; 0 is none. Default: 0.")
    int httpPort = 0;

    /** The throwaway CA's files, once the suite made them for --tls without --tls-cert; not a flag. */
    TlsFiles throwawayTls;

    @Override
    public Map<String, WholeNumber> wholeNumbers() {
        return StackSwitches.WHOLE_NUMBERS;
    }
}
