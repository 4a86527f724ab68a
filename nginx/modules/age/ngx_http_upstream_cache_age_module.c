
/*
 * $upstream_cache_age: the age (RFC 9111, section 4.2.3) of a response
 * answered from the proxy cache, for "add_header Age $upstream_cache_age".
 *
 * nginx 1.22 neither sends nor reads Age.  freenginx 1.27 added a variable
 * of this name to the upstream module; this is the same idea as a dynamic
 * module for an unpatched nginx.
 *
 *   age = received Age + (now - time the entry was stored)
 *
 * "received Age" is the stored response's Age header when it is a whole
 * number (any other value is ignored, RFC 9111, section 5.1), else 0.  The
 * time the entry was stored is the cache node's own (r->cache->date, on
 * nginx's clock, written when the response was cached and again when a 304
 * revalidated it), not the response's Date: nginx keeps the stored headers,
 * Date included, across a 304, so a Date would count an entry revalidated
 * a minute ago as a minute old.
 *
 * The variable is found only for an answer from the cache: HIT, STALE,
 * UPDATING and REVALIDATED.  On REVALIDATED the response headers are sent
 * before nginx moves r->cache->date to the time of the 304, so the time in
 * the cache counts from now.  Otherwise (MISS, EXPIRED, BYPASS, no cache)
 * it is not found, and a map can fall back to $upstream_http_age.
 *
 * Never negative (a clock stepped back counts as no time in the cache);
 * an age that does not fit is sent as 2147483648 (RFC 9111, section 5.1).
 *
 * $upstream_cache_stale_if_error: "1" while a request that found its entry
 * expired goes upstream and the entry may still be served if the upstream
 * fails (its stale-if-error, or stale-while-revalidate, which nginx counts
 * for errors too, has not run out: r->cache->stale_error, which nginx sets
 * when it opens the entry); "0" otherwise, a miss included.  Sent upstream
 * (proxy_set_header), it lets a tier behind this one turn a failure into
 * one this cache will answer from the stale entry, and pass every other
 * failure on as it is.
 */


#include <ngx_config.h>
#include <ngx_core.h>
#include <ngx_http.h>


#define NGX_HTTP_CACHE_AGE_MAX  2147483648LL


static ngx_int_t ngx_http_upstream_cache_age_add_variables(ngx_conf_t *cf);
#if (NGX_HTTP_CACHE)
static int64_t ngx_http_upstream_cache_age_received(ngx_http_request_t *r);
#endif
static ngx_int_t ngx_http_upstream_cache_age_variable(ngx_http_request_t *r,
    ngx_http_variable_value_t *v, uintptr_t data);
static ngx_int_t ngx_http_upstream_cache_stale_if_error_variable(
    ngx_http_request_t *r, ngx_http_variable_value_t *v, uintptr_t data);


static ngx_http_module_t  ngx_http_upstream_cache_age_module_ctx = {
    ngx_http_upstream_cache_age_add_variables,  /* preconfiguration */
    NULL,                                  /* postconfiguration */

    NULL,                                  /* create main configuration */
    NULL,                                  /* init main configuration */

    NULL,                                  /* create server configuration */
    NULL,                                  /* merge server configuration */

    NULL,                                  /* create location configuration */
    NULL                                   /* merge location configuration */
};


ngx_module_t  ngx_http_upstream_cache_age_module = {
    NGX_MODULE_V1,
    &ngx_http_upstream_cache_age_module_ctx,  /* module context */
    NULL,                                  /* module directives */
    NGX_HTTP_MODULE,                       /* module type */
    NULL,                                  /* init master */
    NULL,                                  /* init module */
    NULL,                                  /* init process */
    NULL,                                  /* init thread */
    NULL,                                  /* exit thread */
    NULL,                                  /* exit process */
    NULL,                                  /* exit master */
    NGX_MODULE_V1_PADDING
};


static ngx_http_variable_t  ngx_http_upstream_cache_age_vars[] = {

    /* read anew each time: the value grows while a response is served */

    { ngx_string("upstream_cache_age"), NULL,
      ngx_http_upstream_cache_age_variable, 0,
      NGX_HTTP_VAR_NOCACHEABLE, 0 },

    { ngx_string("upstream_cache_stale_if_error"), NULL,
      ngx_http_upstream_cache_stale_if_error_variable, 0,
      NGX_HTTP_VAR_NOCACHEABLE, 0 },

      ngx_http_null_variable
};


static ngx_int_t
ngx_http_upstream_cache_age_add_variables(ngx_conf_t *cf)
{
    ngx_http_variable_t  *var, *v;

    for (v = ngx_http_upstream_cache_age_vars; v->name.len; v++) {
        var = ngx_http_add_variable(cf, &v->name, v->flags);
        if (var == NULL) {
            return NGX_ERROR;
        }

        var->get_handler = v->get_handler;
        var->data = v->data;
    }

    return NGX_OK;
}


static ngx_int_t
ngx_http_upstream_cache_age_variable(ngx_http_request_t *r,
    ngx_http_variable_value_t *v, uintptr_t data)
{
#if (NGX_HTTP_CACHE)

    u_char               *p;
    time_t                now, since;
    int64_t               age;
    ngx_http_upstream_t  *u;

    u = r->upstream;

    if (u == NULL || r->cache == NULL) {
        v->not_found = 1;
        return NGX_OK;
    }

    now = ngx_time();

    switch (u->cache_status) {

    case NGX_HTTP_CACHE_HIT:
    case NGX_HTTP_CACHE_STALE:
    case NGX_HTTP_CACHE_UPDATING:
        since = r->cache->date;
        break;

    case NGX_HTTP_CACHE_REVALIDATED:

        /*
         * validated just now: nginx sets r->cache->date to now
         * once these headers are sent
         */

        since = now;
        break;

    default:
        v->not_found = 1;
        return NGX_OK;
    }

    age = ngx_http_upstream_cache_age_received(r);

    /* no time stored: nothing to count from */

    if (since != 0 && since < now) {
        age += now - since;
    }

    if (age > NGX_HTTP_CACHE_AGE_MAX) {
        age = NGX_HTTP_CACHE_AGE_MAX;
    }

    p = ngx_pnalloc(r->pool, NGX_INT64_LEN);
    if (p == NULL) {
        return NGX_ERROR;
    }

    v->len = ngx_sprintf(p, "%L", age) - p;
    v->valid = 1;
    v->no_cacheable = 1;
    v->not_found = 0;
    v->data = p;

    return NGX_OK;

#else

    v->not_found = 1;
    return NGX_OK;

#endif
}


static ngx_int_t
ngx_http_upstream_cache_stale_if_error_variable(ngx_http_request_t *r,
    ngx_http_variable_value_t *v, uintptr_t data)
{
    ngx_uint_t  stale;

    stale = 0;

#if (NGX_HTTP_CACHE)

    /* EXPIRED: the entry was found stale and the request goes upstream */

    if (r->upstream != NULL
        && r->cache != NULL
        && r->upstream->cache_status == NGX_HTTP_CACHE_EXPIRED
        && r->cache->stale_error)
    {
        stale = 1;
    }

#endif

    v->len = 1;
    v->valid = 1;
    v->no_cacheable = 1;
    v->not_found = 0;
    v->data = (u_char *) (stale ? "1" : "0");

    return NGX_OK;
}


#if (NGX_HTTP_CACHE)

static int64_t
ngx_http_upstream_cache_age_received(ngx_http_request_t *r)
{
    u_char           *p, *last;
    int64_t           age;
    ngx_uint_t        i;
    ngx_list_part_t  *part;
    ngx_table_elt_t  *h;

    /* on an answer from the cache, these are the stored headers */

    part = &r->upstream->headers_in.headers.part;
    h = part->elts;

    for (i = 0; /* void */ ; i++) {

        if (i >= part->nelts) {
            if (part->next == NULL) {
                return 0;
            }

            part = part->next;
            h = part->elts;
            i = 0;
        }

        if (h[i].hash == 0
            || h[i].key.len != sizeof("Age") - 1
            || ngx_strncasecmp(h[i].key.data, (u_char *) "Age",
                               sizeof("Age") - 1)
               != 0)
        {
            continue;
        }

        /* the first Age counts; delta-seconds is 1*DIGIT */

        p = h[i].value.data;
        last = p + h[i].value.len;

        if (p == last) {
            return 0;
        }

        age = 0;

        for ( /* void */ ; p < last; p++) {

            if (*p < '0' || *p > '9') {
                return 0;
            }

            if (age < NGX_HTTP_CACHE_AGE_MAX) {
                age = age * 10 + (*p - '0');
            }
        }

        return age < NGX_HTTP_CACHE_AGE_MAX ? age : NGX_HTTP_CACHE_AGE_MAX;
    }
}

#endif
