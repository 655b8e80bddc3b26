package org.switchboard.journal;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/** A named value the journal keeps across restarts (the generated hub id). */
@Entity
@Table(name = "journal_setting")
public class JournalSettingEntity {

    /** Setting name under which the generated hub id is stored. */
    static final String HUB_ID = "hub_id";

    @Id
    @Column(name = "setting_name", length = 64)
    private String name;

    @Column(name = "setting_value", nullable = false, length = 1024)
    private String value;

    /** For JPA. */
    protected JournalSettingEntity() {
    }

    JournalSettingEntity(String name, String value) {
        this.name = name;
        this.value = value;
    }

    String value() {
        return value;
    }
}
