/**
 * The database schema as versioned scripts ({@code db/migration/<vendor>/V<n>__*.sql}), applied with
 * Flyway at start-up before JPA touches the database; schema.md says how to add a migration.
 */
package org.switchboard.schema;
