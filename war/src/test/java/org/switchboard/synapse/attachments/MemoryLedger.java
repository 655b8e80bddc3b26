package org.switchboard.synapse.attachments;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** A test-only ledger in memory; {@code failCommits} simulates a database failure on commit. */
final class MemoryLedger implements AttachmentLedger {

    final Map<String, AttachmentMetadata> objects = new HashMap<>();
    final Map<String, String> uploads = new HashMap<>();
    final Set<String> refs = new HashSet<>();
    boolean failCommits;

    private static String key(String scope, String digest) {
        return scope + "\0" + digest;
    }

    @Override
    public synchronized Optional<AttachmentMetadata> find(String scope, String digest) {
        return Optional.ofNullable(objects.get(key(scope, digest)));
    }

    @Override
    public synchronized List<AttachmentMetadata> all() {
        return new ArrayList<>(objects.values());
    }

    @Override
    public synchronized List<AttachmentMetadata> inScope(String scope) {
        return objects.values().stream().filter(m -> m.scope().equals(scope)).toList();
    }

    @Override
    public synchronized void insertUpload(String uploadId, String scope, String digest, long length, String owner) {
        uploads.put(uploadId, owner);
    }

    @Override
    public synchronized void deleteUpload(String uploadId) {
        uploads.remove(uploadId);
    }

    @Override
    public synchronized void deleteAllUploads() {
        uploads.clear();
    }

    @Override
    public synchronized void commit(String uploadId, AttachmentMetadata metadata) {
        if (failCommits) {
            throw new IllegalStateException("database down");
        }
        objects.put(key(metadata.scope(), metadata.digest()), metadata);
        uploads.remove(uploadId);
    }

    @Override
    public synchronized void deleteObject(String scope, String digest) {
        objects.remove(key(scope, digest));
        refs.removeIf(r -> r.startsWith(key(scope, digest) + "\0"));
    }

    @Override
    public synchronized void addRef(String scope, String digest, String ref) {
        refs.add(key(scope, digest) + "\0" + ref);
    }

    @Override
    public synchronized void removeRef(String scope, String digest, String ref) {
        refs.remove(key(scope, digest) + "\0" + ref);
    }

    @Override
    public synchronized boolean referenced(String scope, String digest) {
        return refs.stream().anyMatch(r -> r.startsWith(key(scope, digest) + "\0"));
    }
}
