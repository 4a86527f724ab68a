package dev.ratecache.appserver.accounting;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Accounts every request that reaches the origin's port before any handler is chosen, so that
 * the total holds what no endpoint took: a tier in front that passes requests for unknown paths
 * sees them arrive here. The management port, a context of its own, is not filtered: watching the
 * origin does not count as load.
 */
@Component
class EveryRequestCounted extends OncePerRequestFilter {

    private final OriginAccounting accounting;

    EveryRequestCounted(OriginAccounting accounting) {
        this.accounting = accounting;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        try (OriginAccounting.Arrival arrival = accounting.arrived()) {
            chain.doFilter(request, response);
        }
    }
}
