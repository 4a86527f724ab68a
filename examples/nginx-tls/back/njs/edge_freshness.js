// Edge freshness: how long the front tier's cache may keep a response, computed
// the way RFC 9111 says (sections 4.2.1, 4.2.3 and 5.3, with RFC 9213's
// CDN-Cache-Control), for the back tier to hand over as X-Accel-Expires.
//
// nginx 1.22 on its own ignores Age, counts Expires against its own clock
// instead of the response's Date, stores "Vary: Accept, *" and knows nothing of
// CDN-Cache-Control. The back tier sits next to the origin and sees its headers
// first, so it works out the remaining lifetime once and the front just obeys.
//
// The answer is "" (send nothing: the front's own reading of Cache-Control is
// right), "0" (never store) or a whole number of seconds still fresh.
//
// X-Accel-Expires overrides Cache-Control in nginx, and in 1.22 a Cache-Control
// after it is not read at all, while one before it that refuses storing
// (no-store, private, no-cache, max-age=0) wins. So the header is added after
// the origin's Cache-Control, which leaves no-store, private and the stale-*
// extensions to the front; only where a CDN-Cache-Control lets the edge store
// what Cache-Control refuses does the header filter put it first.
// https://nginx.org/en/docs/http/ngx_http_proxy_module.html#proxy_ignore_headers

const MONTHS = { jan: 0, feb: 1, mar: 2, apr: 3, may: 4, jun: 5,
                 jul: 6, aug: 7, sep: 8, oct: 9, nov: 10, dec: 11 };

// The three forms of HTTP-date a recipient must accept (RFC 9110, 5.6.7).
const IMF_FIXDATE = /^[A-Za-z]{3}, (\d{2}) ([A-Za-z]{3}) (\d{4}) (\d{2}):(\d{2}):(\d{2}) GMT$/;
const RFC850_DATE = /^[A-Za-z]+, (\d{2})-([A-Za-z]{3})-(\d{2}) (\d{2}):(\d{2}):(\d{2}) GMT$/;
const ASCTIME_DATE = /^[A-Za-z]{3} ([A-Za-z]{3}) ([ \d]\d) (\d{2}):(\d{2}):(\d{2}) (\d{4})$/;

/** Seconds since the epoch, or NaN when value is not an HTTP-date. */
function httpDate(value) {
    const text = (value || '').trim();
    let m = IMF_FIXDATE.exec(text);
    if (m) {
        return utcSeconds(m[3], m[2], m[1], m[4], m[5], m[6]);
    }
    m = RFC850_DATE.exec(text);
    if (m) {
        // A two-digit year more than 50 years ahead is in the past century.
        const yy = Number(m[3]);
        const thisYear = new Date().getUTCFullYear();
        let year = 2000 + yy;
        if (year > thisYear + 50) {
            year -= 100;
        }
        return utcSeconds(year, m[2], m[1], m[4], m[5], m[6]);
    }
    m = ASCTIME_DATE.exec(text);
    if (m) {
        return utcSeconds(m[6], m[1], m[2].trim(), m[3], m[4], m[5]);
    }
    return NaN;
}

function utcSeconds(year, month, day, hour, minute, second) {
    const index = MONTHS[String(month).toLowerCase()];
    if (index === undefined) {
        return NaN;
    }
    return Date.UTC(Number(year), index, Number(day), Number(hour), Number(minute), Number(second)) / 1000;
}

/** Every value of the outgoing header name, one per field line, in order. */
function fieldLines(r, name) {
    const wanted = name.toLowerCase();
    return r.rawHeadersOut.filter(h => h[0].toLowerCase() === wanted).map(h => h[1]);
}

/** The members of a comma-separated list spread over any number of field lines. */
function members(lines) {
    return lines.join(',').split(',').map(s => s.trim()).filter(s => s.length > 0);
}

/** Cache directives by lower-case name; the first of a repeated directive wins. */
function directives(lines) {
    const found = {};
    members(lines).forEach(member => {
        const eq = member.indexOf('=');
        const name = (eq < 0 ? member : member.slice(0, eq)).trim().toLowerCase();
        const value = eq < 0 ? '' : member.slice(eq + 1).trim().replace(/^"(.*)"$/, '$1');
        if (!(name in found)) {
            found[name] = value;
        }
    });
    return found;
}

/** A delta-seconds value, or undefined when absent or not a non-negative integer. */
function deltaSeconds(value) {
    return /^\d+$/.test(value || '') ? Number(value) : undefined;
}

// CDN-Cache-Control is a Structured Field Dictionary (RFC 9213, 2.1), which
// Cache-Control is not: it is read with the parsing algorithm of RFC 9651,
// section 4.2, and any input that algorithm fails on is thrown out whole.
// https://www.rfc-editor.org/rfc/rfc9651#section-4.2

/** A parse failure (RFC 9651, 4.2: "fail parsing"); the caller ignores the field. */
function sfFail(p, what) {
    throw new Error('not a Structured Field Dictionary: ' + what + ' at ' + p.i);
}

function sfPeek(p) {
    return p.s.charAt(p.i);
}

function isDigit(c) {
    return c >= '0' && c <= '9';
}

function isLcalpha(c) {
    return c >= 'a' && c <= 'z';
}

function isAlpha(c) {
    return isLcalpha(c) || (c >= 'A' && c <= 'Z');
}

// The end of the input peeks as '', which indexOf finds at 0 in any string.
function isTchar(c) {
    return isAlpha(c) || isDigit(c) || (c !== '' && "!#$%&'*+-.^_`|~".indexOf(c) >= 0);
}

function skipSP(p) {
    while (sfPeek(p) === ' ') {
        p.i++;
    }
}

// OWS between members may hold tabs too; SP alone elsewhere (RFC 9651, 4.2.2).
function skipOWS(p) {
    while (sfPeek(p) === ' ' || sfPeek(p) === '\t') {
        p.i++;
    }
}

function isKeyChar(c) {
    return isLcalpha(c) || isDigit(c) || c === '_' || c === '-' || c === '.' || c === '*';
}

/** 4.2.3.3: lower case, digits and _-.* only, from a lower-case letter or "*". */
function sfKey(p) {
    const start = p.i;
    if (!isLcalpha(sfPeek(p)) && sfPeek(p) !== '*') {
        sfFail(p, 'a key');
    }
    while (isKeyChar(sfPeek(p))) {
        p.i++;
    }
    return p.s.slice(start, p.i);
}

/** 4.2.4: an Integer of up to 15 digits, or a Decimal of up to 12 digits, a dot and 1 to 3. */
function sfNumber(p) {
    const start = p.i;
    if (sfPeek(p) === '-') {
        p.i++;
    }
    if (!isDigit(sfPeek(p))) {
        sfFail(p, 'a digit');
    }
    let digits = 0;
    let dotAfter = -1;
    for (;;) {
        const c = sfPeek(p);
        if (isDigit(c)) {
            digits++;
        } else if (c === '.' && dotAfter < 0) {
            if (digits > 12) {
                sfFail(p, 'a decimal of more than 12 integer digits');
            }
            dotAfter = digits;
        } else {
            break;
        }
        p.i++;
        if (digits > 15) {
            sfFail(p, 'a number of more than 15 digits');
        }
    }
    const text = p.s.slice(start, p.i);
    if (dotAfter < 0) {
        return { type: 'integer', value: Number(text) };
    }
    const fraction = digits - dotAfter;
    if (fraction < 1 || fraction > 3) {
        sfFail(p, 'a decimal of 1 to 3 fractional digits');
    }
    return { type: 'decimal', value: Number(text) };
}

/** 4.2.5: printable ASCII between quotes; a backslash escapes only a quote or itself. */
function sfString(p) {
    p.i++;
    let value = '';
    while (p.i < p.s.length) {
        const c = p.s.charAt(p.i++);
        if (c === '\\') {
            const next = p.s.charAt(p.i++);
            if (next !== '"' && next !== '\\') {
                sfFail(p, 'an escape of a quote or a backslash');
            }
            value += next;
        } else if (c === '"') {
            return { type: 'string', value: value };
        } else if (c.charCodeAt(0) < 0x20 || c.charCodeAt(0) > 0x7e) {
            sfFail(p, 'printable ASCII');
        } else {
            value += c;
        }
    }
    return sfFail(p, 'the closing quote');
}

/** 4.2.6: a letter or "*", then tchar, ":" and "/". */
function sfToken(p) {
    const start = p.i++;
    while (isTchar(sfPeek(p)) || sfPeek(p) === ':' || sfPeek(p) === '/') {
        p.i++;
    }
    return { type: 'token', value: p.s.slice(start, p.i) };
}

/** 4.2.7: base64 between colons, its "=" padding optional as 4.2.7 allows but only at the end. */
function sfByteSequence(p) {
    const end = p.s.indexOf(':', p.i + 1);
    const content = end < 0 ? '' : p.s.slice(p.i + 1, end);
    const padded = content.indexOf('=') >= 0;
    if (end < 0 || !/^[A-Za-z0-9+\/]*={0,2}$/.test(content)
            || (padded ? content.length % 4 !== 0 : content.length % 4 === 1)) {
        sfFail(p, 'a base64 byte sequence');
    }
    p.i = end + 1;
    return { type: 'binary', value: content };
}

/** 4.2.8: ?1 or ?0. */
function sfBoolean(p) {
    const c = p.s.charAt(p.i + 1);
    if (c !== '0' && c !== '1') {
        sfFail(p, 'a boolean');
    }
    p.i += 2;
    return { type: 'boolean', value: c === '1' };
}

/** 4.2.9: "@" and an Integer of seconds. */
function sfDate(p) {
    p.i++;
    const seconds = sfNumber(p);
    if (seconds.type !== 'integer') {
        sfFail(p, 'a date in whole seconds');
    }
    return { type: 'date', value: seconds.value };
}

/** 4.2.10: %"..." of printable ASCII, with lower-case %xx escapes forming valid UTF-8. */
function sfDisplayString(p) {
    if (p.s.charAt(p.i + 1) !== '"') {
        sfFail(p, 'a display string');
    }
    p.i += 2;
    let encoded = '';
    while (p.i < p.s.length) {
        const c = p.s.charAt(p.i++);
        if (c === '"') {
            try {
                return { type: 'displaystring', value: decodeURIComponent(encoded) };
            } catch (e) {
                return sfFail(p, 'UTF-8');
            }
        }
        if (c.charCodeAt(0) < 0x20 || c.charCodeAt(0) > 0x7e) {
            sfFail(p, 'printable ASCII');
        }
        if (c === '%') {
            const hex = p.s.slice(p.i, p.i + 2);
            if (!/^[0-9a-f]{2}$/.test(hex)) {
                sfFail(p, 'two lower-case hex digits');
            }
            encoded += '%' + hex;
            p.i += 2;
        } else {
            encoded += c;
        }
    }
    return sfFail(p, 'the closing quote');
}

/** 4.2.3.1: a bare item, by its first character. */
function sfBareItem(p) {
    const c = sfPeek(p);
    if (c === '-' || isDigit(c)) {
        return sfNumber(p);
    }
    if (c === '"') {
        return sfString(p);
    }
    if (c === '*' || isAlpha(c)) {
        return sfToken(p);
    }
    if (c === ':') {
        return sfByteSequence(p);
    }
    if (c === '?') {
        return sfBoolean(p);
    }
    if (c === '@') {
        return sfDate(p);
    }
    if (c === '%') {
        return sfDisplayString(p);
    }
    return sfFail(p, 'a bare item');
}

/** 4.2.3.2: parsed for their syntax only; RFC 9213, 2.1 ignores a directive's parameters. */
function sfParameters(p) {
    while (sfPeek(p) === ';') {
        p.i++;
        skipSP(p);
        sfKey(p);
        if (sfPeek(p) === '=') {
            p.i++;
            sfBareItem(p);
        }
    }
}

/** 4.2.3: a bare item and its parameters. */
function sfItem(p) {
    const item = sfBareItem(p);
    sfParameters(p);
    return item;
}

/** 4.2.1.2: "(" items separated by spaces ")" with parameters after each and after the list. */
function sfInnerList(p) {
    p.i++;
    const items = [];
    while (p.i < p.s.length) {
        skipSP(p);
        if (sfPeek(p) === ')') {
            p.i++;
            sfParameters(p);
            return { type: 'innerlist', value: items };
        }
        items.push(sfItem(p));
        if (sfPeek(p) !== ' ' && sfPeek(p) !== ')') {
            sfFail(p, 'a space or ")" after an inner list item');
        }
    }
    return sfFail(p, 'the closing ")"');
}

/**
 * The field's members by key, each { type, value }, as RFC 9651, 4.2 and
 * 4.2.2 parse a Dictionary from the field's lines combined; throws where
 * parsing fails. A repeated key takes the last value (4.2.2).
 */
function sfDictionary(text) {
    const p = { s: text, i: 0 };
    const members = Object.create(null);
    skipSP(p);
    while (p.i < p.s.length) {
        const key = sfKey(p);
        if (sfPeek(p) === '=') {
            p.i++;
            members[key] = sfPeek(p) === '(' ? sfInnerList(p) : sfItem(p);
        } else {
            members[key] = { type: 'boolean', value: true };
            sfParameters(p);
        }
        skipOWS(p);
        if (p.i >= p.s.length) {
            break;
        }
        if (sfPeek(p) !== ',') {
            sfFail(p, 'a comma between members');
        }
        p.i++;
        skipOWS(p);
        if (p.i >= p.s.length) {
            sfFail(p, 'a member after the last comma');
        }
    }
    return members;
}

// The directives this edge reads, and the only type each may have: RFC 9213,
// 2.1 maps RFC 9111's delta-seconds to an Integer, a directive without a value
// to Boolean true, and a quoted field list (private, no-cache) to a String.
const DIRECTIVE_TYPES = {
    'max-age': 'delta-seconds',
    's-maxage': 'delta-seconds',
    'no-store': 'true',
    'private': 'true or string',
    'no-cache': 'true or string',
};

function hasItsType(name, member) {
    const expected = DIRECTIVE_TYPES[name];
    const isTrue = member.type === 'boolean' && member.value === true;
    if (expected === 'delta-seconds') {
        return member.type === 'integer' && member.value >= 0;
    }
    if (expected === 'true') {
        return isTrue;
    }
    if (expected === 'true or string') {
        return isTrue || member.type === 'string';
    }
    return true;
}

/**
 * CDN-Cache-Control's directives in the shape directives() gives, or null
 * where the edge must act as if it were absent (RFC 9213, 2.1): no field, an
 * empty one, one that fails to parse as a Dictionary, or one whose directive
 * has the wrong type ("max-age=10.0", max-age="60"). The RFC says not to
 * consume such a value; ignoring the whole field, not just the directive,
 * leaves Cache-Control in charge rather than a CDN-Cache-Control left without
 * the lifetime its sender meant to give.
 * https://www.rfc-editor.org/rfc/rfc9213#section-2.1
 */
function targetedDirectives(lines) {
    let members;
    try {
        // Field lines are combined as RFC 9110, 5.3 says before parsing (RFC 9651, 4.2).
        members = sfDictionary(lines.join(', '));
    } catch (e) {
        return null;
    }
    const names = Object.keys(members);
    if (names.length === 0) {
        return null;
    }
    const rules = {};
    for (let n = 0; n < names.length; n++) {
        const member = members[names[n]];
        if (!hasItsType(names[n], member)) {
            return null;
        }
        rules[names[n]] = member.type === 'integer' ? String(member.value) : '';
    }
    return rules;
}

function forbidsStoring(rules) {
    return 'no-store' in rules || 'private' in rules || 'no-cache' in rules;
}

/**
 * Whether nginx 1.22 at the front refuses to store the response by its
 * Cache-Control alone, whatever an X-Accel-Expires after it says.
 */
function refusedByCacheControl(r) {
    const rules = directives(fieldLines(r, 'Cache-Control'));
    const lifetime = 's-maxage' in rules ? rules['s-maxage'] : rules['max-age'];
    return forbidsStoring(rules) || deltaSeconds(lifetime) === 0;
}

/** How long the edge may keep the response being sent: "", "0" or seconds. */
function edgeLifetime(r) {
    // The front never stores a response that sets a cookie (nginx refuses it
    // by itself); X-Accel-Expires must not be what makes it change its mind.
    if (fieldLines(r, 'Set-Cookie').length > 0) {
        return '';
    }
    // A valid CDN-Cache-Control replaces Cache-Control for this cache (RFC 9213, 2.1).
    const targeted = targetedDirectives(fieldLines(r, 'CDN-Cache-Control'));
    const cacheControl = directives(fieldLines(r, 'Cache-Control'));
    if (targeted === null && forbidsStoring(cacheControl)) {
        return '';
    }
    // "*" anywhere in Vary: no stored response can ever match (RFC 9111, 4.1).
    if (members(fieldLines(r, 'Vary')).includes('*')) {
        return '0';
    }
    const rules = targeted !== null ? targeted : cacheControl;
    if (forbidsStoring(rules)) {
        return '0';
    }

    const now = Math.floor(Date.now() / 1000);
    // The origin's Date: this tier sends a Date of its own instead.
    const date = httpDate(r.variables.upstream_http_date);
    const dateValue = isNaN(date) ? now : date;

    // Freshness lifetime (4.2.1): s-maxage, then max-age, then Expires - Date.
    let lifetime = deltaSeconds(rules['s-maxage']);
    if (lifetime === undefined) {
        lifetime = deltaSeconds(rules['max-age']);
    }
    if (lifetime === undefined) {
        const expires = fieldLines(r, 'Expires');
        if (expires.length === 0) {
            // No explicit freshness: nothing to correct.
            return '';
        }
        const expiresValue = httpDate(expires[0]);
        if (isNaN(expiresValue)) {
            // An invalid Expires, "0" included, means already expired (5.3).
            return '0';
        }
        lifetime = expiresValue - dateValue;
    }

    // Current age (4.2.3): the larger of the apparent age (clock difference)
    // and the Age received; an invalid Age is ignored (5.1). The response
    // delay is left out: this tier is next to the origin, which stamps its
    // Date when it answers, so its processing time is not age.
    const apparentAge = Math.max(0, now - dateValue);
    const ageValue = deltaSeconds(members(fieldLines(r, 'Age'))[0]) || 0;
    const remaining = lifetime - Math.max(apparentAge, ageValue);
    return remaining > 0 ? String(remaining) : '0';
}

/** A lifetime the edge must keep although Cache-Control refuses it: seconds, or "". */
function storedDespiteCacheControl(r) {
    const seconds = edgeLifetime(r);
    return /^[1-9][0-9]*$/.test(seconds) && refusedByCacheControl(r) ? seconds : '';
}

/**
 * The X-Accel-Expires value for the response being sent: "", "0" or seconds.
 * Used as `js_set $edge_expires edge_freshness.xAccelExpires;`.
 */
function xAccelExpires(r) {
    // The header filter has sent it already, ahead of Cache-Control (cdnCacheControlFirst).
    return storedDespiteCacheControl(r) ? '' : edgeLifetime(r);
}

/**
 * Removes the headers the upstream named in Connection: hop-by-hop, for the
 * hop between the origin and this tier only (RFC 9110, 7.6.1). nginx keeps
 * Connection itself from the client, not the headers it names.
 */
function withoutConnectionTokens(r) {
    const named = members([r.variables.upstream_http_connection || ''])
        .map(token => token.toLowerCase())
        // Connection options, not headers of this response.
        .filter(token => token !== 'close' && token !== 'keep-alive');
    named.forEach(token => {
        for (const name in r.headersOut) {
            if (name.toLowerCase() === token) {
                delete r.headersOut[name];
            }
        }
    });
}

/**
 * Takes stale-while-revalidate and stale-if-error out of Cache-Control when
 * must-revalidate, proxy-revalidate or s-maxage is there: those forbid a shared
 * cache to serve the response stale (RFC 9111, 5.2.2.2, 5.2.2.8, 5.2.2.10),
 * while nginx 1.22 reads the two extensions and not the three. The client sees
 * the same Cache-Control without them.
 */
function staleAsAllowed(r) {
    const lines = fieldLines(r, 'Cache-Control');
    const rules = directives(lines);
    const forbidsStale = 'must-revalidate' in rules || 'proxy-revalidate' in rules || 's-maxage' in rules;
    if (!forbidsStale || !('stale-while-revalidate' in rules || 'stale-if-error' in rules)) {
        return;
    }
    r.headersOut['Cache-Control'] = members(lines)
        .filter(member => !/^stale-(while-revalidate|if-error)\s*(=|$)/i.test(member))
        .join(', ');
}

/**
 * A CDN-Cache-Control that lets the edge store what Cache-Control refuses
 * (RFC 9213, 2.1): X-Accel-Expires goes ahead of Cache-Control, which nginx
 * 1.22 then leaves unread, and Cache-Control, set again, follows it unchanged
 * for the client. add_header would only append it after Cache-Control, since
 * the headers filter runs after this one.
 */
function cdnCacheControlFirst(r) {
    const seconds = storedDespiteCacheControl(r);
    if (seconds === '') {
        return;
    }
    const cacheControl = fieldLines(r, 'Cache-Control').join(', ');
    r.headersOut['X-Accel-Expires'] = seconds;
    // Setting a header removes its lines and appends the new one at the end.
    r.headersOut['Cache-Control'] = cacheControl;
}

/**
 * The back tier's one header filter: the response as the edge may store it.
 * Used as `js_header_filter edge_freshness.headersForTheEdge;`.
 */
function headersForTheEdge(r) {
    withoutConnectionTokens(r);
    staleAsAllowed(r);
    cdnCacheControlFirst(r);
}

export default { xAccelExpires, headersForTheEdge };
