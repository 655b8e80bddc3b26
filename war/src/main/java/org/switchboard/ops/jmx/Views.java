package org.switchboard.ops.jmx;

import java.beans.ConstructorProperties;

/** The composite (open-type) rows the MXBeans return; getters and a properties constructor so any JMX client can rebuild them. */
public final class Views {

    private Views() {
    }

    /** One open SYNAPSE socket. */
    public static final class ConnectionInfo {
        private final String connectionId;
        private final String name;
        private final String remoteHost;
        private final String roles;
        private final int protocolVersion;
        private final double openedAt;

        /** A row. */
        @ConstructorProperties({"connectionId", "name", "remoteHost", "roles", "protocolVersion", "openedAt"})
        public ConnectionInfo(String connectionId, String name, String remoteHost, String roles, int protocolVersion, double openedAt) {
            this.connectionId = connectionId;
            this.name = name;
            this.remoteHost = remoteHost;
            this.roles = roles;
            this.protocolVersion = protocolVersion;
            this.openedAt = openedAt;
        }

        public String getConnectionId() {
            return connectionId;
        }

        public String getName() {
            return name;
        }

        public String getRemoteHost() {
            return remoteHost;
        }

        public String getRoles() {
            return roles;
        }

        public int getProtocolVersion() {
            return protocolVersion;
        }

        public double getOpenedAt() {
            return openedAt;
        }
    }

    /** One live claim. */
    public static final class ClaimInfo {
        private final String taskId;
        private final String owner;
        private final String status;
        private final long epoch;
        private final double claimedAt;
        private final double leaseExpiresAt;

        /** A row. */
        @ConstructorProperties({"taskId", "owner", "status", "epoch", "claimedAt", "leaseExpiresAt"})
        public ClaimInfo(String taskId, String owner, String status, long epoch, double claimedAt, double leaseExpiresAt) {
            this.taskId = taskId;
            this.owner = owner;
            this.status = status;
            this.epoch = epoch;
            this.claimedAt = claimedAt;
            this.leaseExpiresAt = leaseExpiresAt;
        }

        public String getTaskId() {
            return taskId;
        }

        public String getOwner() {
            return owner;
        }

        public String getStatus() {
            return status;
        }

        public long getEpoch() {
            return epoch;
        }

        public double getClaimedAt() {
            return claimedAt;
        }

        public double getLeaseExpiresAt() {
            return leaseExpiresAt;
        }
    }

    /** One open webhook delivery. */
    public static final class WebhookInfo {
        private final long messageSeq;
        private final String messageId;
        private final long agentId;
        private final int attemptsFailed;
        private final long dueAtMillis;
        private final boolean inFlight;

        /** A row. */
        @ConstructorProperties({"messageSeq", "messageId", "agentId", "attemptsFailed", "dueAtMillis", "inFlight"})
        public WebhookInfo(long messageSeq, String messageId, long agentId, int attemptsFailed, long dueAtMillis, boolean inFlight) {
            this.messageSeq = messageSeq;
            this.messageId = messageId;
            this.agentId = agentId;
            this.attemptsFailed = attemptsFailed;
            this.dueAtMillis = dueAtMillis;
            this.inFlight = inFlight;
        }

        public long getMessageSeq() {
            return messageSeq;
        }

        public String getMessageId() {
            return messageId;
        }

        public long getAgentId() {
            return agentId;
        }

        public int getAttemptsFailed() {
            return attemptsFailed;
        }

        public long getDueAtMillis() {
            return dueAtMillis;
        }

        public boolean isInFlight() {
            return inFlight;
        }
    }

    /** One organisation's usage against its plan (-1 = unlimited). */
    public static final class PlanUsageInfo {
        private final String org;
        private final String plan;
        private final long messagesToday;
        private final long messagesPerDay;
        private final long agents;
        private final long agentsLimit;
        private final long filesPendingBytes;

        /** A row. */
        @ConstructorProperties({"org", "plan", "messagesToday", "messagesPerDay", "agents", "agentsLimit", "filesPendingBytes"})
        public PlanUsageInfo(String org, String plan, long messagesToday, long messagesPerDay, long agents, long agentsLimit,
                             long filesPendingBytes) {
            this.org = org;
            this.plan = plan;
            this.messagesToday = messagesToday;
            this.messagesPerDay = messagesPerDay;
            this.agents = agents;
            this.agentsLimit = agentsLimit;
            this.filesPendingBytes = filesPendingBytes;
        }

        public String getOrg() {
            return org;
        }

        public String getPlan() {
            return plan;
        }

        public long getMessagesToday() {
            return messagesToday;
        }

        public long getMessagesPerDay() {
            return messagesPerDay;
        }

        public long getAgents() {
            return agents;
        }

        public long getAgentsLimit() {
            return agentsLimit;
        }

        public long getFilesPendingBytes() {
            return filesPendingBytes;
        }
    }
}
