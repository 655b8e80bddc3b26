package org.switchboard.synapse.federation.policy;

import jakarta.json.JsonObject;
import jakarta.json.stream.JsonParser;
import jakarta.json.stream.JsonParsingException;
import java.io.IOException;
import java.io.StringReader;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.Set;
import org.switchboard.json.Jsons;
import org.switchboard.synapse.security.PolicyFileException;
import org.switchboard.synapse.security.PolicyFiles;

/**
 * Reads a federation policy file strictly: the owner-only posture of {@link PolicyFiles}, at most
 * {@link #MAX_BYTES} bytes, and no object with a repeated member (the JSON-P reader keeps the last
 * copy silently, so a duplicate could hide a revocation).
 */
public final class StrictPolicyJson {

    /** Largest federation policy file (synapse-advanced §4.2, §5.1). */
    public static final int MAX_BYTES = 65_536;

    private StrictPolicyJson() {
    }

    /** The file's single JSON object; refuses with a {@link PolicyFileException} naming {@code key}. */
    public static JsonObject read(String key, Path path) {
        try {
            if (path != null && Files.isRegularFile(path, LinkOption.NOFOLLOW_LINKS) && Files.size(path) > MAX_BYTES) {
                throw new PolicyFileException(key, "the file is larger than " + MAX_BYTES + " bytes");
            }
            if (path != null && Files.isRegularFile(path, LinkOption.NOFOLLOW_LINKS)) {
                Object links = Files.getAttribute(path, "unix:nlink", LinkOption.NOFOLLOW_LINKS);
                if (links instanceof Integer n && n > 1) {
                    throw new PolicyFileException(key, "the file has another hard link (aliases are refused)");
                }
            }
        } catch (UnsupportedOperationException | IllegalArgumentException e) {
            // no unix attribute view: the posture checks of PolicyFiles still apply
        } catch (IOException e) {
            throw new PolicyFileException(key, "the file cannot be read (" + e.getClass().getSimpleName() + ")");
        }
        JsonObject object = PolicyFiles.readObject(key, path);
        String text;
        try {
            text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(Files.readAllBytes(path))).toString();
        } catch (CharacterCodingException e) {
            throw new PolicyFileException(key, "the file is not UTF-8");
        } catch (IOException e) {
            throw new PolicyFileException(key, "the file cannot be read (" + e.getClass().getSimpleName() + ")");
        }
        if (text.getBytes(StandardCharsets.UTF_8).length > MAX_BYTES) {
            throw new PolicyFileException(key, "the file is larger than " + MAX_BYTES + " bytes");
        }
        String duplicate = firstDuplicateKey(text);
        if (duplicate != null) {
            throw new PolicyFileException(key, "duplicate member '" + duplicate + "'");
        }
        return object;
    }

    /** The first member name repeated within one object of {@code json}, or null when none is. */
    public static String firstDuplicateKey(String json) {
        Deque<Set<String>> objects = new ArrayDeque<>();
        Deque<Boolean> isObject = new ArrayDeque<>();
        try (JsonParser parser = Jsons.PROVIDER.createParser(new StringReader(json))) {
            while (parser.hasNext()) {
                switch (parser.next()) {
                    case START_OBJECT -> {
                        objects.push(new HashSet<>());
                        isObject.push(true);
                    }
                    case START_ARRAY -> isObject.push(false);
                    case END_OBJECT -> {
                        objects.pop();
                        isObject.pop();
                    }
                    case END_ARRAY -> isObject.pop();
                    case KEY_NAME -> {
                        if (!objects.peek().add(parser.getString())) {
                            return parser.getString();
                        }
                    }
                    default -> { }
                }
            }
        } catch (JsonParsingException e) {
            return null; // malformed text is refused by the reader itself
        }
        return null;
    }
}
