package io.triage.explain;

import io.triage.safety.Safe;

/**
 * The base of every view that shows a diagnosis to a person — terminal text, markdown, Slack blocks, an
 * HTML page: {@link #render} is final and hands {@link #draw} a copy of the diagnosis in which every string
 * has been through the one sanitiser ({@link Safe#forTerminal}: controls, escape sequences, bidi and
 * zero-width characters made visible, long values cut with a marker). A view cannot reach the raw strings,
 * so it cannot forget. Secrets are already gone: {@code Triage} redacts the capture and the intent before
 * diagnosing. A markdown or HTML view still escapes its own syntax ({@code *}, {@code <}) in {@link #draw}.
 */
public abstract class SanitisedView {

    /** The diagnosis, sanitised, drawn by the view. */
    public final String render(Diagnosis d) {
        return draw(sanitise(d));
    }

    /** Draws an already sanitised diagnosis. */
    protected abstract String draw(Diagnosis safe);

    /** Every string of {@code d} through {@link Safe#forTerminal}; numbers and structure kept. */
    public static Diagnosis sanitise(Diagnosis d) {
        return d.mapText(Safe::forTerminal);
    }
}
