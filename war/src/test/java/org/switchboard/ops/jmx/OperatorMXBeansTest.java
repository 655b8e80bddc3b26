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
import org.switchboard.ops.operator.QueueOperations;
import org.switchboard.ops.operator.SynapseOperations;
import org.switchboard.synapse.claims.TaskClaim;
import org.switchboard.synapse.delivery.DeliveryQueueView;

class OperatorMXBeansTest {

    /** Records calls; answers with fixed rows. */
    private static final class FakeOps implements OperatorOperations {
        static final String KEY = "ab".repeat(32);
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
        public QueueOperations.DeliveryQueue deliveryQueue() {
            DeliveryQueueView.Request r = request(KEY);
            return new QueueOperations.DeliveryQueue(true, Map.of("queued", 1, "boundary_delivered", 0, "acknowledged", 0), 1, 1, 2, 0,
                    List.of(r), List.of(new DeliveryQueueView.AudienceBacklog("planner", 2, 1000.5)));
        }

        @Override
        public DeliveryQueueView.Request deliveryRequest(String operationKey) {
            calls.add("request " + operationKey);
            if (!KEY.equals(operationKey)) {
                throw OperatorRefusal.notFound("no delivery request " + operationKey + " on this hub");
            }
            return request(operationKey);
        }

        private static DeliveryQueueView.Request request(String key) {
            return new DeliveryQueueView.Request(key, "rq-1", "planner", "builder", "i".repeat(64), "T-1", "steer", "follow_up",
                    "queued", false, 2000.0, 1, 12);
        }

        @Override
        public QueueOperations.ForwardQueue forwardQueue() {
            return new QueueOperations.ForwardQueue(true, List.of(new QueueOperations.PeerQueue("hub-b", 1, 4.5),
                    new QueueOperations.PeerQueue("hub-c", 0, 0)), 1, 4.5,
                    List.of(new QueueOperations.PendingForward("f-1", "hub-b", "ACME/alice", "ACME/bob@hub-b", "pending", 3,
                            100.0, 108.0, 160.0)));
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
        assertEquals(9, server.queryNames(new ObjectName("org.switchboard:*"), null).size());
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
    void theDeliveryAndForwardQueueBeansShowOpenTypesAndReadOneRequest() throws Exception {
        MBeanServer server = MBeanServerFactory.newMBeanServer();
        FakeOps ops = new FakeOps();
        for (Map.Entry<String, Object> bean : OperatorMXBeans.all(ops).entrySet()) {
            server.registerMBean(bean.getValue(), new ObjectName(bean.getKey()));
        }
        ObjectName delivery = new ObjectName("org.switchboard:type=Synapse,name=Delivery");
        TabularData byStage = (TabularData) server.getAttribute(delivery, "OpenByStage");
        assertEquals(1, byStage.get(new Object[] {"queued"}).get("value"));
        assertEquals(1, server.getAttribute(delivery, "OpenRequestCount"));
        assertEquals(2, server.getAttribute(delivery, "NotificationsPending"));
        CompositeData[] open = (CompositeData[]) server.getAttribute(delivery, "OldestOpenRequests");
        assertEquals(FakeOps.KEY, open[0].get("operationKey"));
        assertEquals("queued", open[0].get("stage"));
        CompositeData[] backlog = (CompositeData[]) server.getAttribute(delivery, "NotificationBacklog");
        assertEquals("planner", backlog[0].get("audience"));
        assertEquals(2, backlog[0].get("pending"));
        CompositeData one = (CompositeData) server.invoke(delivery, "requestStatus", new Object[] {FakeOps.KEY},
                new String[] {String.class.getName()});
        assertEquals("rq-1", one.get("requestId"));
        assertEquals("builder", one.get("target"));
        RuntimeMBeanException unknown = assertThrows(RuntimeMBeanException.class, () -> server.invoke(delivery, "requestStatus",
                new Object[] {"cd".repeat(32)}, new String[] {String.class.getName()}));
        assertTrue(unknown.getCause() instanceof IllegalArgumentException, unknown.getCause().toString());

        ObjectName forwards = new ObjectName("org.switchboard:type=Synapse,name=Forwards");
        assertEquals(1L, server.getAttribute(forwards, "Pending"));
        assertEquals(4.5, server.getAttribute(forwards, "OldestPendingSeconds"));
        CompositeData[] peers = (CompositeData[]) server.getAttribute(forwards, "PendingByPeer");
        assertEquals(List.of("hub-b", "hub-c"), List.of(peers[0].get("peer"), peers[1].get("peer")));
        assertEquals(0L, peers[1].get("pending"));
        CompositeData[] pending = (CompositeData[]) server.getAttribute(forwards, "PendingForwards");
        assertEquals("f-1", pending[0].get("forwardId"));
        assertEquals(3, pending[0].get("attempts"));
        assertEquals(108.0, pending[0].get("nextAttemptAt"));
        assertEquals(160.0, pending[0].get("expiresAt"));
        assertEquals("ACME/bob@hub-b", pending[0].get("target"));
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
