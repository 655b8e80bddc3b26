package org.switchboard.redsyn.message;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Lob;
import jakarta.persistence.NamedQuery;
import jakarta.persistence.QueryHint;
import jakarta.persistence.Table;

/** The zip attached to a message, kept apart from the message row until it is delivered. */
@Entity
@Table(name = "REDSYN_FILE")
@NamedQuery(name = "File.delete", query = "DELETE FROM FileEntity f WHERE f.messageId = :id",
        hints = @QueryHint(name = MessageEntity.BIND, value = "true"))
@NamedQuery(name = "File.pendingBytes", query = "SELECT SUM(f.bytes) FROM FileEntity f WHERE f.org = :org")
public class FileEntity {

    @Id
    @Column(length = 128)
    private String messageId;

    /** Organisation of the sender, whose plan counts the space. */
    @Column(length = 64)
    private String org;

    private long bytes;

    @Lob
    @Column(nullable = false)
    private byte[] zip;

    protected FileEntity() {
    }

    public FileEntity(String messageId, String org, byte[] zip) {
        this.messageId = messageId;
        this.org = org;
        this.zip = zip;
        this.bytes = zip.length;
    }

    public byte[] getZip() {
        return zip;
    }
}
