package org.switchboard.synapse.federation.policy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.function.Function;
import java.util.logging.Logger;
import org.switchboard.synapse.security.PolicyFileException;

/**
 * A policy file kept current: loaded strictly at start-up (a fault there stops the hub), then
 * re-read whenever its size, modification time or inode changes, so a revocation takes effect on the
 * next request without a restart. A later read that fails denies everything until the file is fixed
 * (fail closed), logged once per change.
 *
 * @param <P> the parsed policy type
 */
public final class PolicySource<P> {

    private static final Logger LOG = Logger.getLogger(PolicySource.class.getName());

    private final Path path;
    private final Function<Path, P> loader;
    private final P denyAll;
    private volatile Object stamp;
    private volatile P current;

    private PolicySource(Path path, Function<Path, P> loader, P denyAll) {
        this.path = path;
        this.loader = loader;
        this.denyAll = denyAll;
    }

    /**
     * A source over {@code path} (null: nothing configured, always {@code denyAll}); the first load
     * happens here and throws the {@link PolicyFileException} of a bad file.
     */
    public static <P> PolicySource<P> open(Path path, Function<Path, P> loader, P denyAll) {
        PolicySource<P> source = new PolicySource<>(path, loader, denyAll);
        if (path == null) {
            source.current = denyAll;
        } else {
            source.stamp = stampOf(path);
            source.current = loader.apply(path);
        }
        return source;
    }

    /** True when a file is configured. */
    public boolean configured() {
        return path != null;
    }

    /** The policy in force now (re-read when the file changed). */
    public P get() {
        if (path == null) {
            return denyAll;
        }
        Object now = stampOf(path);
        if (!now.equals(stamp)) {
            synchronized (this) {
                if (!now.equals(stamp)) {
                    P loaded;
                    try {
                        loaded = loader.apply(path);
                    } catch (PolicyFileException e) {
                        LOG.warning("SYNAPSE federation: " + e.getMessage() + "; denying every peer until it loads");
                        loaded = denyAll;
                    }
                    current = loaded;
                    stamp = now;
                }
            }
        }
        return current;
    }

    private static Object stampOf(Path path) {
        try {
            BasicFileAttributes a = Files.readAttributes(path, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            return a.size() + ":" + a.lastModifiedTime().toMillis() + ":" + a.fileKey() + ":" + permissions(path);
        } catch (IOException e) {
            return "missing";
        }
    }

    private static String permissions(Path path) {
        try {
            return String.valueOf(Files.getPosixFilePermissions(path, LinkOption.NOFOLLOW_LINKS));
        } catch (IOException | UnsupportedOperationException e) {
            return "";
        }
    }
}
