package dev.ratecache.appserver.config;

import java.util.Set;
import org.springframework.boot.context.properties.ConfigurationPropertiesBindHandlerAdvisor;
import org.springframework.boot.context.properties.bind.AbstractBindHandler;
import org.springframework.boot.context.properties.bind.BindContext;
import org.springframework.boot.context.properties.bind.BindHandler;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.UnboundConfigurationPropertiesException;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.stereotype.Component;

/**
 * Refuses {@code origin.endpoints=...} given as one value. Spring binds a map from its
 * descendants when there are any (application.yml always has some), and then silently drops a
 * value set on the map's own name, so {@code --origin.endpoints=abc} would start the defaults.
 */
@Component
class EndpointsWithoutNameGuard implements ConfigurationPropertiesBindHandlerAdvisor {

    private static final ConfigurationPropertyName ENDPOINTS =
            ConfigurationPropertyName.of(OriginProperties.PREFIX).append("endpoints");

    @Override
    public BindHandler apply(BindHandler bindHandler) {
        return new AbstractBindHandler(bindHandler) {
            @Override
            public <T> Bindable<T> onStart(ConfigurationPropertyName name, Bindable<T> target, BindContext context) {
                if (ENDPOINTS.equals(name)) {
                    for (ConfigurationPropertySource source : context.getSources()) {
                        ConfigurationProperty own = source.getConfigurationProperty(name);
                        if (own != null) {
                            throw new UnboundConfigurationPropertiesException(Set.of(own));
                        }
                    }
                }
                return super.onStart(name, target, context);
            }
        };
    }
}
