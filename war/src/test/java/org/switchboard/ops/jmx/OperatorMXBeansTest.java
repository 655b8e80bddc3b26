package org.switchboard.ops.jmx;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.security.PrivilegedAction;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import javax.management.MBeanServer;
import javax.management.MBeanServerFactory;
import javax.management.ObjectName;
import javax.management.RuntimeMBeanException;
import javax.management.openmbean.CompositeData;
import javax.management.openmbean.TabularData;
import javax.management.remote.JMXPrincipal;
import javax.security.auth.Subject;
import org.junit.jupiter.api.Test;
import org.switchboard.ops.operator.JournalOperations;
import org.switchboard.ops.operator.OperatorOperations;
import org.switchboard.ops.operator.OperatorRefusal;
import org.switchboard.ops.operator.SynapseOperations;
import org.switchboard.synapse.claims.TaskClaim;

class OperatorMXBeansTest {

    /** Records calls; answers with fixed rows. */
    private static final class FakeOps implements OperatorOperations {
        final List<String> calls = new ArrayList<>();

        @Override
        public Map<String, Long> counters() {
            return Map.of();
        }

        @Override
        public List<SynapseOperations.RosterEntry> roster() {
            return List.of(new SynapseOperations.RosterEntry("c1", "alice", "127.0.0.1", List.of("dev"), 2, 1.0));
        }

        @Override
        public String disconnect(String connection, String reason, String principal) {
            calls.add("disconnect " + connection + " " + reason + " " + principal);
            return "c1";
        }

        @Override
        public List<TaskClaim> claims() {
            return List.of();
        }

        @Override
        public TaskClaim forceRelease(String taskId, String reason, String principal) {
            throw OperatorRefusal.notFound("no live claim on task '" + taskId + "'");
        }

        @Override
        public SortedMap<String, Long> mailboxBacklog() {
            return new TreeMap<>(Map.of("bob", 2L));
        }

        @Override
        public JsonObject board() {
            return Json.createObjectBuilder().build();
        }

        @Override
        public JournalOperations.Stats journalStats() {
            return new JournalOperations.Stats(9, 9, 100, 5, 0, 0);
        }

        @Override
        public String backup(String principal) {
            return "/data/backups/x.zip";
        }

        @Override
        public SortedMap<String, long[]> inboxDepths() {
            return new TreeMap<>(Map.of("acme/a", new long[] {3, 1}));
        }

        @Override
        public List<WebhookDelivery> webhookQueue() {
            return List.of(new WebhookDelivery(7, "m-7", 1, 2, 1000, false));
        }

        @Override
        public void retryWebhook(long messageSeq, String principal) {
            calls.add("retry " + messageSeq + " " + principal);
        }

        @Override
        public void dropWebhook(long messageSeq, String reason, String principal) {
            calls.add("drop " + messageSeq);
        }

        @Override
        public List<JsonObject> planUsage() {
            return List.of(Json.createObjectBuilder().add("org", "acme").add("plan", "free").add("messages_today", 4)
                    .add("agents", 1).add("files_pending_bytes", 0)
                    .add("limits", Json.createObjectBuilder().add("messages_per_day", 1000).add("agents", 5)).build());
        }
    }

    @Test
    void everyBeanIsAValidMXBeanWithOpenTypes() throws Exception {
        MBeanServer server = MBeanServerFactory.newMBeanServer();
        FakeOps ops = new FakeOps();
        for (Map.Entry<String, Object> bean : OperatorMXBeans.all(ops).entrySet()) {
            server.registerMBean(bean.getValue(), new ObjectName(bean.getKey()));
        }
        assertEquals(7, server.queryNames(new ObjectName("org.switchboard:*"), null).size());
        CompositeData[] connections = (CompositeData[]) server.getAttribute(
                new ObjectName("org.switchboard:type=Synapse,name=Roster"), "Connections");
        assertEquals("alice", connections[0].get("name"));
        assertEquals("dev", connections[0].get("roles"));
        TabularData backlog = (TabularData) server.getAttribute(new ObjectName("org.switchboard:type=Synapse,name=Mailbox"), "Backlog");
        assertEquals(1, backlog.size());
        assertEquals(9L, server.getAttribute(new ObjectName("org.switchboard:type=Journal,name=Journal"), "LastSeq"));
        TabularData queued = (TabularData) server.getAttribute(new ObjectName("org.switchboard:type=Redsyn,name=Inbox"), "Queued");
        assertEquals(3L, queued.get(new Object[] {"acme/a"}).get("value"));
        CompositeData[] usage = (CompositeData[]) server.getAttribute(new ObjectName("org.switchboard:type=Redsyn,name=Plans"), "Usage");
        assertEquals(1000L, usage[0].get("messagesPerDay"));
        CompositeData[] retries = (CompositeData[]) server.getAttribute(new ObjectName("org.switchboard:type=Redsyn,name=Webhooks"), "RetryQueue");
        assertEquals(7L, retries[0].get("messageSeq"));
    }

    @Test
    void operationsCarryTheJmxPrincipalAndRefusalsArriveAsJdkExceptions() throws Exception {
        MBeanServer server = MBeanServerFactory.newMBeanServer();
        FakeOps ops = new FakeOps();
        for (Map.Entry<String, Object> bean : OperatorMXBeans.all(ops).entrySet()) {
            server.registerMBean(bean.getValue(), new ObjectName(bean.getKey()));
        }
        Subject subject = new Subject(true, Set.of(new JMXPrincipal("controlRole")), Set.of(), Set.of());
        Subject.doAs(subject, (PrivilegedAction<Object>) () -> {
            try {
                return server.invoke(new ObjectName("org.switchboard:type=Synapse,name=Roster"), "disconnect",
                        new Object[] {"alice", "stuck"}, new String[] {String.class.getName(), String.class.getName()});
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        assertEquals(List.of("disconnect alice stuck jmx:controlRole"), ops.calls);
        RuntimeMBeanException refused = assertThrows(RuntimeMBeanException.class, () -> server.invoke(
                new ObjectName("org.switchboard:type=Synapse,name=Claims"), "forceRelease",
                new Object[] {"T-9", "r"}, new String[] {String.class.getName(), String.class.getName()}));
        assertTrue(refused.getCause() instanceof IllegalArgumentException, refused.getCause().toString());
        assertEquals("no live claim on task 'T-9'", refused.getCause().getMessage());
    }

    @Test
    void principalFallsBackToJmxWithoutASubject() {
        assertEquals("jmx", JmxPrincipal.current());
        assertEquals("jmx:ops", JmxPrincipal.of(new Subject(true, Set.of(new JMXPrincipal("ops")), Set.of(), Set.of())));
    }
}
