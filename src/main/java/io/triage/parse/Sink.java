package io.triage.parse;

import io.triage.facts.Unparseable;

import java.util.ArrayList;
import java.util.List;

/** Collects the facts the parsers produce, in order. */
public final class Sink {
    private final List<Object> facts = new ArrayList<>();
    private final List<String> notes = new ArrayList<>();

    public void add(Object fact) {
        facts.add(fact);
    }

    public void unparseable(String probe, String reason, int line, String excerpt) {
        facts.add(new Unparseable(probe, reason, line, excerpt));
    }

    public void note(String note) {
        notes.add(note);
    }

    public List<Object> facts() {
        return facts;
    }

    public List<String> notes() {
        return notes;
    }
}
