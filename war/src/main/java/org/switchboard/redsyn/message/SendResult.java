package org.switchboard.redsyn.message;

import jakarta.json.JsonObject;

/** The reply to {@code POST /messages}: 201 for a new message, 200 for a resent id ({@code duplicate: true}). */
public record SendResult(int status, JsonObject body) {
}
