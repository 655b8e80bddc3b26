package org.switchboard.redsyn.link;

/** One thing a side of a link exposes: a kind and a pattern inside the exposing organisation. */
public record Exposure(ExposureKind kind, String pattern) {
}
