package dev.ratecache.appserver.api;

import java.io.IOException;
import java.io.OutputStream;
import org.springframework.http.HttpInputMessage;
import org.springframework.http.HttpOutputMessage;
import org.springframework.http.MediaType;
import org.springframework.http.converter.AbstractHttpMessageConverter;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.stereotype.Component;

/**
 * Writes a {@link ReplayBody} block by block, so that a large body costs no more memory than a
 * small one; Spring Boot puts converter beans ahead of its own.
 */
@Component
class ReplayBodyConverter extends AbstractHttpMessageConverter<ReplayBody> {

    ReplayBodyConverter() {
        super(MediaType.APPLICATION_OCTET_STREAM);
    }

    @Override
    protected boolean supports(Class<?> type) {
        return ReplayBody.class.isAssignableFrom(type);
    }

    @Override
    protected boolean canRead(MediaType mediaType) {
        return false;
    }

    @Override
    protected ReplayBody readInternal(Class<? extends ReplayBody> type, HttpInputMessage input) {
        throw new HttpMessageNotReadableException("a replayed body is only ever written", input);
    }

    @Override
    protected Long getContentLength(ReplayBody body, MediaType contentType) {
        return body.length();
    }

    @Override
    protected void writeInternal(ReplayBody body, HttpOutputMessage output) throws IOException {
        OutputStream out = output.getBody();
        byte[] block = body.block();
        long remaining = body.length();
        while (remaining > 0) {
            int now = (int) Math.min(remaining, block.length);
            out.write(block, 0, now);
            remaining -= now;
        }
    }
}
