package dev.ratecache.appserver.appcache;

import dev.ratecache.appserver.config.AppCacheMode;
import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.type.AnnotatedTypeMetadata;

/**
 * Matches when {@code origin.app-cache} is {@code redis}, read the way the properties bind it (any
 * case). A value that does not bind does not match here; binding OriginProperties then refuses it
 * in one line.
 */
class AppCacheIsRedis extends SpringBootCondition {

    @Override
    public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
        AppCacheMode mode;
        try {
            mode = Binder.get(context.getEnvironment()).bind("origin.app-cache", AppCacheMode.class)
                    .orElse(AppCacheMode.OFF);
        }
        catch (BindException ex) {
            return ConditionOutcome.noMatch("origin.app-cache does not bind");
        }
        return (mode == AppCacheMode.REDIS) ? ConditionOutcome.match("origin.app-cache=redis")
                : ConditionOutcome.noMatch("origin.app-cache=" + mode);
    }
}
