package org.switchboard.synapse.attachments;

/** An expected attachment refusal carrying one §3.6 stable string; answered as {@code ok:false}, never a 1011. */
public final class AttachmentRefusal extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** A refusal with {@code error}, one of {@link AttachmentErrors}. */
    public AttachmentRefusal(String error) {
        // no stack trace: refusals are control flow, and their text is the whole story
        super(error, null, false, false);
    }

    /** The stable error string. */
    public String error() {
        return getMessage();
    }
}
