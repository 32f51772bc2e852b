package io.triage.knowledge;

/** A knowledge-base file is missing or wrong; the message names the file and what is wrong. */
public class KnowledgeException extends RuntimeException {
    public KnowledgeException(String message) {
        super(message);
    }

    public KnowledgeException(String message, Throwable cause) {
        super(message, cause);
    }
}
