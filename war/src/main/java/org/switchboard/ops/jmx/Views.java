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

    /** One delivery request (synapse-advanced §2) without its body; times in epoch seconds. */
    public static final class DeliveryRequestInfo {
        private final String operationKey;
        private final String requestId;
        private final String sender;
        private final String target;
        private final String targetIncarnation;
        private final String taskId;
        private final String requestedMode;
        private final String selectedMode;
        private final String stage;
        private final boolean cancelRequested;
        private final double deadline;
        private final long ordinal;
        private final long latestEventSeq;

        /** A row. */
        @ConstructorProperties({"operationKey", "requestId", "sender", "target", "targetIncarnation", "taskId", "requestedMode",
                "selectedMode", "stage", "cancelRequested", "deadline", "ordinal", "latestEventSeq"})
        public DeliveryRequestInfo(String operationKey, String requestId, String sender, String target, String targetIncarnation,
                                   String taskId, String requestedMode, String selectedMode, String stage, boolean cancelRequested,
                                   double deadline, long ordinal, long latestEventSeq) {
            this.operationKey = operationKey;
            this.requestId = requestId;
            this.sender = sender;
            this.target = target;
            this.targetIncarnation = targetIncarnation;
            this.taskId = taskId;
            this.requestedMode = requestedMode;
            this.selectedMode = selectedMode;
            this.stage = stage;
            this.cancelRequested = cancelRequested;
            this.deadline = deadline;
            this.ordinal = ordinal;
            this.latestEventSeq = latestEventSeq;
        }

        public String getOperationKey() {
            return operationKey;
        }

        public String getRequestId() {
            return requestId;
        }

        public String getSender() {
            return sender;
        }

        public String getTarget() {
            return target;
        }

        public String getTargetIncarnation() {
            return targetIncarnation;
        }

        public String getTaskId() {
            return taskId;
        }

        public String getRequestedMode() {
            return requestedMode;
        }

        public String getSelectedMode() {
            return selectedMode;
        }

        public String getStage() {
            return stage;
        }

        public boolean isCancelRequested() {
            return cancelRequested;
        }

        public double getDeadline() {
            return deadline;
        }

        public long getOrdinal() {
            return ordinal;
        }

        public long getLatestEventSeq() {
            return latestEventSeq;
        }
    }

    /** One audience's undelivered delivery notifications; {@code oldestAt} in epoch seconds. */
    public static final class NotificationBacklogInfo {
        private final String audience;
        private final int pending;
        private final double oldestAt;

        /** A row. */
        @ConstructorProperties({"audience", "pending", "oldestAt"})
        public NotificationBacklogInfo(String audience, int pending, double oldestAt) {
            this.audience = audience;
            this.pending = pending;
            this.oldestAt = oldestAt;
        }

        public String getAudience() {
            return audience;
        }

        public int getPending() {
            return pending;
        }

        public double getOldestAt() {
            return oldestAt;
        }
    }

    /** Pending cross-hub forwards to one configured peer. */
    public static final class ForwardPeerInfo {
        private final String peer;
        private final long pending;
        private final double oldestPendingSeconds;

        /** A row. */
        @ConstructorProperties({"peer", "pending", "oldestPendingSeconds"})
        public ForwardPeerInfo(String peer, long pending, double oldestPendingSeconds) {
            this.peer = peer;
            this.pending = pending;
            this.oldestPendingSeconds = oldestPendingSeconds;
        }

        public String getPeer() {
            return peer;
        }

        public long getPending() {
            return pending;
        }

        public double getOldestPendingSeconds() {
            return oldestPendingSeconds;
        }
    }

    /** One pending cross-hub forward (synapse-advanced §4.6) without its chat; times in epoch seconds. */
    public static final class ForwardInfo {
        private final String forwardId;
        private final String peer;
        private final String sender;
        private final String target;
        private final String state;
        private final int attempts;
        private final double createdAt;
        private final double nextAttemptAt;
        private final double expiresAt;

        /** A row. */
        @ConstructorProperties({"forwardId", "peer", "sender", "target", "state", "attempts", "createdAt", "nextAttemptAt",
                "expiresAt"})
        public ForwardInfo(String forwardId, String peer, String sender, String target, String state, int attempts,
                           double createdAt, double nextAttemptAt, double expiresAt) {
            this.forwardId = forwardId;
            this.peer = peer;
            this.sender = sender;
            this.target = target;
            this.state = state;
            this.attempts = attempts;
            this.createdAt = createdAt;
            this.nextAttemptAt = nextAttemptAt;
            this.expiresAt = expiresAt;
        }

        public String getForwardId() {
            return forwardId;
        }

        public String getPeer() {
            return peer;
        }

        public String getSender() {
            return sender;
        }

        public String getTarget() {
            return target;
        }

        public String getState() {
            return state;
        }

        public int getAttempts() {
            return attempts;
        }

        public double getCreatedAt() {
            return createdAt;
        }

        public double getNextAttemptAt() {
            return nextAttemptAt;
        }

        public double getExpiresAt() {
            return expiresAt;
        }
    }
}
