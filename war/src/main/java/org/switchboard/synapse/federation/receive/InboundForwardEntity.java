package org.switchboard.synapse.federation.receive;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/** One accepted inbound forward (synapse-advanced §4.5 inbound ledger): its key, request digest and result. */
@Entity
@Table(name = "federation_inbound")
public class InboundForwardEntity {

    /** {@code origin + " " + forward_id} (a hub id has no space). */
    @Id
    @Column(name = "ledger_key", length = 200)
    private String ledgerKey;

    @Column(name = "origin_hub", nullable = false, length = 64)
    private String origin;

    @Column(name = "forward_id", nullable = false, length = 128)
    private String forwardId;

    @Column(name = "kind", nullable = false, length = 32)
    private String kind;

    @Column(name = "request_digest", nullable = false, length = 64)
    private String digest;

    /** The §4.4 result object as compact JSON (≤ 262,144 bytes). */
    @Column(name = "result_json", nullable = false, length = 262144)
    private String resultJson;

    @Column(name = "received_at", nullable = false)
    private double receivedAt;

    /** For JPA. */
    protected InboundForwardEntity() {
    }

    InboundForwardEntity(InboundLedger.Entry e) {
        this.ledgerKey = key(e.origin(), e.forwardId());
        this.origin = e.origin();
        this.forwardId = e.forwardId();
        this.kind = e.kind();
        this.digest = e.digest();
        this.resultJson = e.result().toString();
        this.receivedAt = e.receivedAt();
    }

    static String key(String origin, String forwardId) {
        return origin + " " + forwardId;
    }

    InboundLedger.Entry toEntry() {
        try (var reader = org.switchboard.json.Jsons.PROVIDER.createReader(new java.io.StringReader(resultJson))) {
            return new InboundLedger.Entry(origin, forwardId, kind, digest, reader.readObject(), receivedAt);
        }
    }
}
