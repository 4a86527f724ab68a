package dev.ratecache.suite.up;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.ratecache.suite.Repo;
import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What a running {@code ./run-tests.sh up} left for {@code down}, a second {@code up}, {@code gui}
 * and {@code peak}: its own PID, its children's, the ports and URLs, and its run folder. It is
 * written twice: {@code up.json} in the run folder, and {@code up.json} beside the run folders
 * (results/up.json by default), the well-known place the other commands look. That place is
 * per checkout, like the run folders, and already ignored by git (results/*).
 *
 * @param pid      the up process (a JVM)
 * @param started  its start time in epoch milliseconds, as the kernel reports it: with the PID it
 *                 tells this up from an unrelated process that got the PID after it died
 * @param runDir   its run folder
 * @param children the processes it started (origin, back and front nginx masters), each with its start time
 * @param urls     name to URL, in the order up prints them
 * @param ports    flag to port
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record UpState(long pid, long started, String runDir, List<Child> children, Map<String, String> urls,
        Map<String, Integer> ports) {

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    /** The file's name, in the run folder and beside the run folders. */
    public static final String FILE = "up.json";

    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Child(String name, long pid, long started) {
        public static Child of(String name, long pid) {
            return new Child(name, pid, startedMillis(pid).orElse(0L));
        }

        /** Still the process up started: alive, and started when it was. */
        public boolean alive() {
            return isSameProcess(pid, started);
        }
    }

    public UpState {
        // Null where a file lacks the field (written before any child started).
        children = children == null ? List.of() : List.copyOf(children);
        urls = urls == null ? new LinkedHashMap<>() : new LinkedHashMap<>(urls);
        ports = ports == null ? new LinkedHashMap<>() : new LinkedHashMap<>(ports);
    }

    /** This process's state, with no children yet: what up claims the pointer with before starting anything. */
    public static UpState self(Path runDir) {
        long pid = ProcessHandle.current().pid();
        return new UpState(pid, startedMillis(pid).orElse(0L), runDir.toAbsolutePath().toString(), List.of(),
                Map.of(), Map.of());
    }

    public UpState with(List<Child> newChildren, Map<String, String> newUrls, Map<String, Integer> newPorts) {
        return new UpState(pid, started, runDir, newChildren, newUrls, newPorts);
    }

    /** Where the run folders go unless --results says otherwise: results/ in the checkout. */
    public static Path defaultResults() {
        return Repo.root().resolve("results");
    }

    /** The well-known file in a results folder. */
    public static Path pointer(Path results) {
        return results.resolve(FILE);
    }

    /** The up whose state is in {@code results}, if it is still running; a stale state file is removed. */
    public static Optional<UpState> running(Path results) {
        Optional<UpState> state = read(pointer(results));
        if (state.isPresent() && !state.get().alive()) {
            state.get().remove(results);
            return Optional.empty();
        }
        return state;
    }

    /** The state in {@code file}; empty when there is none or it cannot be read (a half-written file counts as none). */
    public static Optional<UpState> read(Path file) {
        try {
            return Files.isRegularFile(file) ? Optional.of(JSON.readValue(file.toFile(), UpState.class)) : Optional.empty();
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /**
     * Writes the pointer only if there is none: of two ups started at once, exactly one gets it.
     * Returns false when another up's pointer is there.
     */
    public boolean claim(Path results) throws IOException {
        Files.createDirectories(results);
        Path tmp = Files.createTempFile(results, ".up-", ".json");
        try {
            JSON.writeValue(tmp.toFile(), this);
            // A hard link appears whole or not at all, and fails when the name exists: an atomic create-if-absent.
            Files.createLink(pointer(results), tmp);
            return true;
        } catch (FileAlreadyExistsException taken) {
            return false;
        } catch (UnsupportedOperationException | IOException noLinks) {
            if (Files.exists(pointer(results))) {
                return false;
            }
            try {
                Files.writeString(pointer(results), JSON.writeValueAsString(this), StandardOpenOption.CREATE_NEW,
                        StandardOpenOption.WRITE);
                return true;
            } catch (FileAlreadyExistsException taken) {
                return false;
            }
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    /** Writes (replaces) the state in the run folder and at the pointer, each whole. */
    public void write(Path results) throws IOException {
        writeWhole(Path.of(runDir).resolve(FILE));
        writeWhole(pointer(results));
    }

    private void writeWhole(Path file) throws IOException {
        Path tmp = Files.createTempFile(file.toAbsolutePath().getParent(), ".up-", ".json");
        JSON.writeValue(tmp.toFile(), this);
        try {
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
        }
    }

    /** Removes the state in the run folder, and the pointer if it is this up's. */
    public void remove(Path results) {
        try {
            Files.deleteIfExists(Path.of(runDir).resolve(FILE));
            Optional<UpState> there = read(pointer(results));
            if (there.isEmpty() || there.get().pid == pid && there.get().started == started) {
                Files.deleteIfExists(pointer(results));
            }
        } catch (IOException e) {
            // A leftover file is found stale and removed by the next up or down.
        }
    }

    /** The up process is still running: its PID alive, with the start time recorded, and its command an up. */
    public boolean alive() {
        if (!isSameProcess(pid, started)) {
            return false;
        }
        Optional<String[]> arguments = ProcessHandle.of(pid).flatMap(h -> h.info().arguments());
        return arguments.isEmpty() || List.of(arguments.get()).contains("up");
    }

    public Optional<String> url(String name) {
        return Optional.ofNullable(urls.get(name));
    }

    /** Children still running (those that are gone, or whose PID now names another process, left out). */
    public List<ProcessHandle> liveChildren() {
        List<ProcessHandle> live = new ArrayList<>();
        for (Child c : children) {
            if (c.alive()) {
                ProcessHandle.of(c.pid()).ifPresent(live::add);
            }
        }
        return live;
    }

    /** One line naming this up, for messages. */
    public String describe() {
        return "PID " + pid + ", front " + urls.getOrDefault("front", "?") + ", run folder " + runDir;
    }

    static boolean isSameProcess(long pid, long startedMillis) {
        Optional<ProcessHandle> handle = ProcessHandle.of(pid);
        if (handle.isEmpty() || !handle.get().isAlive()) {
            return false;
        }
        Optional<Long> now = startedMillis(pid);
        // Where the start time is unknown (not Linux), the PID alone has to do.
        return startedMillis == 0 || now.isEmpty() || now.get() == startedMillis;
    }

    static Optional<Long> startedMillis(long pid) {
        return ProcessHandle.of(pid).flatMap(h -> h.info().startInstant()).map(Instant::toEpochMilli);
    }
}
