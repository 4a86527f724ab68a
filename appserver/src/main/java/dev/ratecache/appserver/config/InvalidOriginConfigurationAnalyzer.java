package dev.ratecache.appserver.config;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.StringJoiner;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.bind.DataObjectPropertyName;
import org.springframework.boot.context.properties.bind.UnboundConfigurationPropertiesException;
import org.springframework.boot.context.properties.bind.validation.BindValidationException;
import org.springframework.boot.context.properties.bind.validation.ValidationErrors;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.core.Ordered;
import org.springframework.validation.FieldError;
import org.springframework.validation.ObjectError;

/**
 * Turns a failure to bind {@code origin.*} into one line that names the property, its value and
 * the accepted form.
 *
 * <p>Ordered first so that it wins over Spring Boot's own bind analyzers, whose multi-line
 * reports are made for application developers rather than for someone running the suite.
 */
public class InvalidOriginConfigurationAnalyzer extends AbstractFailureAnalyzer<BindException> implements Ordered {

    private static final ConfigurationPropertyName ORIGIN = ConfigurationPropertyName.of(OriginProperties.PREFIX);

    @Override
    public int getOrder() {
        return Ordered.HIGHEST_PRECEDENCE;
    }

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, BindException cause) {
        if (!ORIGIN.equals(cause.getName()) && !ORIGIN.isAncestorOf(cause.getName())) {
            return null;
        }
        String problems = String.join("; ", problems(cause));
        return new OneLineFailureAnalysis("origin: invalid configuration: " + problems, cause);
    }

    private static List<String> problems(BindException cause) {
        if (cause.getCause() instanceof BindValidationException invalid) {
            return validationProblems(invalid.getValidationErrors());
        }
        if (cause.getCause() instanceof UnboundConfigurationPropertiesException unknown) {
            return unknown.getUnboundProperties().stream()
                    .map(property -> problem(property.getName(), property.getValue(), "unknown property",
                            AcceptedForms.KNOWN_PROPERTIES))
                    .toList();
        }
        ConfigurationProperty property = cause.getProperty();
        Object value = (property != null) ? property.getValue() : null;
        return List.of(problem(cause.getName(), value, "not a valid " + typeName(cause),
                AcceptedForms.of(cause.getName())));
    }

    private static List<String> validationProblems(ValidationErrors errors) {
        List<String> problems = new ArrayList<>();
        for (ObjectError error : errors.getAllErrors()) {
            if (error instanceof FieldError fieldError) {
                ConfigurationPropertyName name = propertyName(errors.getName(), fieldError.getField());
                Object value = originalValue(errors, name, fieldError.getRejectedValue());
                // A map key has no value of its own; showing the whole endpoint would only confuse.
                boolean isEndpointName = ORIGIN.append("endpoints").isParentOf(name);
                problems.add(problem(name, isEndpointName ? null : value, error.getDefaultMessage(),
                        AcceptedForms.of(name)));
            }
            else {
                problems.add(dotted(errors.getName()) + ": " + error.getDefaultMessage());
            }
        }
        return problems;
    }

    // Bean Validation reports "endpoints[hare].maxAge"; people write "origin.endpoints.hare.max-age".
    private static ConfigurationPropertyName propertyName(ConfigurationPropertyName root, String field) {
        return root.append(DataObjectPropertyName.toDashedForm(field));
    }

    // ConfigurationPropertyName prints map keys in brackets and lower case; show them as typed.
    private static String dotted(ConfigurationPropertyName name) {
        StringJoiner dotted = new StringJoiner(".");
        for (int i = 0; i < name.getNumberOfElements(); i++) {
            dotted.add(name.getElement(i, ConfigurationPropertyName.Form.ORIGINAL));
        }
        return dotted.toString();
    }

    // The text as typed ("-5ms") reads better than the converted value ("PT-0.005S").
    private static Object originalValue(ValidationErrors errors, ConfigurationPropertyName name, Object fallback) {
        return errors.getBoundProperties().stream()
                .filter(property -> property.getName().equals(name))
                .map(ConfigurationProperty::getValue)
                .filter(Objects::nonNull)
                .findFirst()
                .orElse(fallback);
    }

    private static String typeName(BindException cause) {
        Class<?> type = cause.getTarget().getType().resolve(Object.class);
        return switch (type.getSimpleName()) {
            case "Duration" -> "duration";
            case "String" -> "text";
            default -> "value";
        };
    }

    private static String problem(ConfigurationPropertyName name, Object value, String message, String accepted) {
        String property = (value != null) ? dotted(name) + "=" + value : dotted(name);
        return property + ": " + message + " (accepted: " + accepted + ")";
    }
}
