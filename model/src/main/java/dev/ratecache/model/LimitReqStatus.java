package dev.ratecache.model;

/**
 * The values of nginx's {@code $limit_req_status} that the model produces (the
 * {@code ngx_http_limit_req_status[]} strings of ngx_http_limit_req_module.c). The dry-run values
 * are not modelled because the suite never sets {@code limit_req_dry_run}.
 */
public enum LimitReqStatus {
    /** Accepted with no delay ({@code NGX_HTTP_LIMIT_REQ_PASSED}). */
    PASSED,
    /** Accepted after waiting {@link Decision#delayMs()} ({@code NGX_HTTP_LIMIT_REQ_DELAYED}). */
    DELAYED,
    /** Answered at once with the limit_req_status code ({@code NGX_HTTP_LIMIT_REQ_REJECTED}). */
    REJECTED
}
