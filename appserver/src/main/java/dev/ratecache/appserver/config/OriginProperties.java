package dev.ratecache.appserver.config;

import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import java.util.Map;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * The origin's content: which endpoints exist, how long each takes and how it may be cached.
 *
 * <p>Unknown fields are refused so that a typo such as {@code delai} stops start-up instead of
 * silently measuring the default.
 */
@Validated
@ConfigurationProperties(prefix = OriginProperties.PREFIX, ignoreUnknownFields = false)
public record OriginProperties(
        @DefaultValue("v1")
        @NotNull
        @Pattern(regexp = AcceptedForms.CONTENT_VERSION_PATTERN, message = "not a valid content version")
        String contentVersion,

        @DefaultValue
        @NotNull
        Map<@Pattern(regexp = AcceptedForms.ENDPOINT_NAME_PATTERN, message = "not a valid endpoint name") String,
            @Valid @NotNull EndpointProperties> endpoints) {

    public static final String PREFIX = "origin";
}
