package org.switchboard.redsyn.paging;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/** The configured byte bound of every REDSYN list reply ({@code redsyn.list.max-bytes}). */
@ApplicationScoped
public class ListLimits {

    /** Most bytes of one list reply (the first entry of a page is sent even when alone it is larger). */
    @Inject
    @ConfigProperty(name = "redsyn.list.max-bytes", defaultValue = "4194304")
    long maxBytes;

    /** A fresh budget of at most {@code maxEntries} entries and the configured bytes. */
    public ListBudget budget(int maxEntries) {
        return new ListBudget(maxBytes, maxEntries);
    }
}
