package io.triage.capture;

/**
 * One part of a paste that was recognised as the output of a command.
 *
 * @param kind what it is
 * @param label how to name it to a person ("nvidia-smi table", "server log (vllm)")
 * @param fromLine first line in the paste, 1-based, the prompt line included when there is one
 * @param toLine last line in the paste, inclusive
 * @param how how it was recognised: a prompt named the command, or the lines' shape
 * @param command the command the prompt showed, or null when recognised by shape
 * @param probe the probe name it was filed under in the capture
 */
public record PasteSegment(PasteRecognizer.Kind kind, String label, int fromLine, int toLine,
                           PasteRecognizer.How how, String command, String probe) {

    /** "nvidia-smi table (lines 1–18, by its shape)". */
    public String describe() {
        String lines = fromLine == toLine ? "line " + fromLine : "lines " + fromLine + "–" + toLine;
        String why = how == PasteRecognizer.How.PROMPT ? "the prompt ran " + command : "by its shape";
        return label + " (" + lines + ", " + why + ")";
    }
}
