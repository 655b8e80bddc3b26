package org.switchboard.redsyn.directory;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.NamedQuery;
import jakarta.persistence.SequenceGenerator;
import jakarta.persistence.Table;

/** A person: an e-mail and a plan. Nodes (tokens) speak for a person. */
@Entity
@Table(name = "REDSYN_PERSON")
@NamedQuery(name = "Person.byEmail", query = "SELECT p FROM PersonEntity p WHERE p.email = :email")
public class PersonEntity {

    @Id
    @SequenceGenerator(name = "redsyn_person_seq", sequenceName = "REDSYN_PERSON_SEQ", allocationSize = 20)
    @GeneratedValue(strategy = GenerationType.SEQUENCE, generator = "redsyn_person_seq")
    private Long id;

    @Column(nullable = false, unique = true, length = 254)
    private String email;

    @Column(nullable = false, length = 40)
    private String plan;

    private long createdAt;

    protected PersonEntity() {
    }

    public PersonEntity(String email, String plan, long createdAt) {
        this.email = email;
        this.plan = plan;
        this.createdAt = createdAt;
    }

    public Long getId() {
        return id;
    }

    public String getEmail() {
        return email;
    }

    public String getPlan() {
        return plan;
    }

    public void setPlan(String plan) {
        this.plan = plan;
    }
}
