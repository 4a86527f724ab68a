// Edge invalidation on writes (RFC 9111, section 4.4): a successful unsafe
// request (POST, PUT, PATCH, DELETE, or an extension method) through the front tier removes the stored
// responses for its own URL and for the same-origin URL in its Location and
// Content-Location, so the next GET reaches the origin instead of an entry the
// write has made wrong. A failed write (4xx, 5xx) leaves the cache alone.
//
// nginx does not invalidate by itself, and no filter can wait for a purge, so
// the write is proxied as a subrequest: once its answer is in, the purges run
// (as subrequests to the purge location) and only then is the answer relayed to
// the client, so a client that reads right after its own write sees the write.
// https://nginx.org/en/docs/njs/reference.html#r_subrequest

/** Response headers nginx sets itself on the relayed answer, or hop-by-hop ones. */
const NOT_RELAYED = ['content-length', 'connection', 'keep-alive', 'transfer-encoding',
                     'date', 'server'];

/** The path and query of url when it names this same site (scheme, host and port), else null. */
function sameOriginTarget(r, url) {
    if (!url) {
        return null;
    }
    if (url.startsWith('/') && !url.startsWith('//')) {
        return url;
    }
    const m = /^([A-Za-z][A-Za-z0-9+.-]*):\/\/([^/?#]+)([^#]*)/.exec(url);
    if (!m) {
        // A relative reference such as "item/7": resolve it against the request's path.
        if (/^[^/:?#][^:]*$/.test(url)) {
            const base = r.uri.slice(0, r.uri.lastIndexOf('/') + 1);
            return base + url;
        }
        return null;
    }
    const scheme = m[1].toLowerCase();
    const authority = m[2].toLowerCase();
    const defaultPort = scheme === 'https' ? ':443' : ':80';
    const host = (r.headersIn.Host || '').toLowerCase();
    const sameAuthority = authority === host
        || authority === host + defaultPort
        || authority + defaultPort === host;
    if (scheme !== r.variables.scheme || !sameAuthority) {
        return null;
    }
    return m[3] === '' ? '/' : m[3];
}

/**
 * Removes the stored response for target (path and query): a subrequest to the
 * purge location, whose key takes the target from the subrequest's arguments.
 */
function invalidate(r, target) {
    return r.subrequest('/.edge-invalidate', { args: target });
}

function relay(r, reply) {
    const headers = reply.headersOut;
    for (const name in headers) {
        if (!NOT_RELAYED.includes(name.toLowerCase())) {
            r.headersOut[name] = headers[name];
        }
    }
    r.return(reply.status, reply.responseBuffer || '');
}

/** js_content of the write location: proxy the write, invalidate on success, then answer. */
async function writeThenInvalidate(r) {
    // POST only carries the body: njs takes no method it does not know (an extension
    // method), and the write location sends the client's own (proxy_method).
    const reply = await r.subrequest('/.edge-write', { method: 'POST' });
    if (reply.status >= 200 && reply.status < 400) {
        const targets = [r.variables.request_uri];
        ['Location', 'Content-Location'].forEach(name => {
            const target = sameOriginTarget(r, reply.headersOut[name]);
            if (target !== null && !targets.includes(target)) {
                targets.push(target);
            }
        });
        try {
            await Promise.all(targets.map(target => invalidate(r, target)));
        } catch (e) {
            // The write happened: answer it, and leave the entries to expire.
            r.error('edge invalidation after ' + r.method + ' ' + r.variables.request_uri + ' failed: ' + e);
        }
    }
    relay(r, reply);
}

export default { writeThenInvalidate };
