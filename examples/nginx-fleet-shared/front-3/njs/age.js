// Age (RFC 9111 section 5.1) on every response the edge serves from its cache.
//
// nginx 1.22 neither sends nor reads Age. Without it, a client cache behind the
// edge counts freshness from when it received a response, so an entry that sat
// 2.9 s in the edge is kept for its whole max-age again.
//
// RFC 9111 section 4.2.3 counts the age of a stored response as
//   corrected_initial_age = max(now_at_receipt - date_value, age_value + response_delay)
//   current_age = corrected_initial_age + (now - response_time)
// nginx keeps no response_time, so this takes the Date stored with the entry
// (the origin's, passed through both tiers by proxy_pass_header Date) as the
// time the edge received it:
//   current_age = age_value + max(0, now - date_value)
// On one clock that errs high, never low: it counts the origin-to-edge delay
// and, when a cache behind the edge forwarded the origin's Date, that cache's
// time twice. Erring high is what section 4.2.3 asks for; the cost is an
// entry that looks older than it is to a client cache, never a fresher one.
//
// snippets/front/age-value.conf reads this only for an answer from the cache; a
// MISS, EXPIRED or BYPASS passes on the Age the tier behind sent. It is the
// fallback for nginx/modules/age ($upstream_cache_age), which counts from the
// time the cache stored or last revalidated the entry: nginx keeps the stored
// Date across a 304, so here a REVALIDATED answer, and the HITs after it, count
// from the first Date (high, as above).

const AGE_MAX = 2147483648;

function fromCache(r) {
    const dateValue = Date.parse(r.variables.upstream_http_date || '');
    if (isNaN(dateValue)) {
        // No usable Date: nothing to count from, so keep what was stored.
        return r.variables.upstream_http_age || '';
    }
    // An Age that is not a whole number is ignored (RFC 9111 section 5.1).
    const received = r.variables.upstream_http_age || '';
    const ageValue = /^[0-9]+$/.test(received) ? Number(received) : 0;
    const sinceDate = Math.max(0, Math.floor((Date.now() - dateValue) / 1000));
    // A cache sends 2147483648 for an age it cannot represent (RFC 9111 section 5.1).
    return String(Math.min(ageValue + sinceDate, AGE_MAX));
}

export default { fromCache };
